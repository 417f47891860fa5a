// `gable notify USER --message …`: an operator's test notification to a user's feed and live stream (and, once
// push delivery exists, their devices), through the same notify() every feature uses.
import type { Command } from 'commander';
import { withDeps, type CommandDepsRunner } from '../../cli/context.js';
import { errors } from '../../errors.js';
import { reportOperatorErrors } from '../brands/operator-errors.js';
import { findLiveUserByRef } from '../users/users.repository.js';
import { notify } from './notify.js';
import { tokensOf } from './tokens.repository.js';

interface NotifyOptions {
  message: string;
  title?: string;
  json?: boolean;
}

export function registerNotifyCommand(program: Command, withCommandDeps: CommandDepsRunner = (run) => withDeps({}, run)): void {
  program
    .command('notify')
    .description("send a test notification to a user's feed and live stream (push to devices: not built yet)")
    .argument('<user>', 'user id or email')
    .requiredOption('--message <text>', 'the notification text')
    .option('--title <text>', 'a title')
    .option('--json', 'print JSON')
    .action(async (ref: string, options: NotifyOptions) => {
      await reportOperatorErrors(async () => {
        if (options.message.trim() === '') throw errors.badRequest('--message must not be empty');
        await withCommandDeps(async (deps) => {
          const user = await findLiveUserByRef(deps.db, ref);
          if (!user) throw errors.notFound(`User ${ref}`);
          const sent = await deps.db.transaction().execute((trx) =>
            notify(trx, deps, { recipients: [user.id], action: 'Tested', notification_type: 'OperatorTested', message: options.message, title: options.title ?? null }),
          );
          const devices = (await tokensOf(deps.db, [user.id])).length;
          const result = { notification: sent!.id, user: user.id, email: user.email, seq: sent!.recipients[0]!.seq, devices, pushed: 0 };
          if (options.json) return console.log(JSON.stringify(result, null, 2));
          console.log(`notified ${user.email}: notification ${result.notification} is in their feed`);
          console.log(`${devices} registered device(s); push delivery is not built yet, so none was pushed`);
        });
      });
    });
}
