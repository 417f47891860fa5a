// `gable notify USER --message …`: an operator's test notification to a user's feed, live stream and devices,
// through the same notify() every feature uses (a worker sends the queued pushes). While an embedded server
// holds DATA_DIR, the command has that server send it (operator action `notify`, platform/operator-channel.ts),
// so it reaches the streams open on it at once.
import type { Command } from 'commander';
import { runHereOrOnServer, withDeps, type CommandDepsRunner, reportOperatorErrors } from '../../platform/commands.js';
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import type { OperatorAction } from '../../platform/operator-channel.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

export interface TestNotification {
  /** User id or email. */
  user: string;
  message: string;
  title?: string | null;
}

export interface TestNotificationSent {
  notification: string;
  user: string;
  email: string;
  seq: number;
  devices: number;
  pushes_queued: number;
  pushes_skipped: number;
  /** The providers of the skipped pushes (not configured). */
  skipped_providers: string[];
}

const MAX_TEXT = 4000;

/** Checks what an operator (or the operator channel's caller) asked for: AppError for a mistake. */
function parseTestNotification(body: unknown): TestNotification {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const text = (field: string, optional: boolean): string | null => {
    const value = input[field];
    if (optional && (value === undefined || value === null)) return null;
    if (typeof value !== 'string' || value.trim() === '') throw errors.badRequest(`--${field} must not be empty`);
    if (value.length > MAX_TEXT) throw errors.badRequest(`--${field} is over ${MAX_TEXT} characters`);
    return value;
  };
  if (typeof input.user !== 'string' || input.user.trim() === '')
    throw errors.badRequest('A user id or email is required');
  return { user: input.user, message: text('message', false)!, title: text('title', true) };
}

export async function sendTestNotification(deps: Deps, input: TestNotification): Promise<TestNotificationSent> {
  const [{ findLiveUserByRef }, { notify }, { tokensOf }, { deliveriesOf }] = await Promise.all([
    import('../users/index.js'),
    import('./notify.js'),
    import('./tokens.repository.js'),
    import('./push.repository.js'),
  ]);
  const user = await findLiveUserByRef(deps.db, input.user);
  if (!user) throw errors.notFound(`User ${input.user}`);
  const sent = await deps.db.transaction().execute((trx) =>
    notify(trx, deps, {
      recipients: [user.id],
      action: 'Tested',
      notification_type: 'OperatorTested',
      message: input.message,
      title: input.title ?? null,
    }),
  );
  const devices = (await tokensOf(deps.db, [user.id])).length;
  const pushes = await deliveriesOf(deps.db, sent!.id);
  const skipped = pushes.filter((p) => p.status === 'skipped');
  return {
    notification: sent!.id,
    user: user.id,
    email: user.email,
    seq: sent!.recipients[0]!.seq,
    devices,
    pushes_queued: pushes.filter((p) => p.status === 'pending').length,
    pushes_skipped: skipped.length,
    skipped_providers: [...new Set(skipped.map((p) => p.provider))],
  };
}

/** The operator action `notify` of a running embedded server. */
export const notifyOperatorAction: OperatorAction = (deps, body) =>
  sendTestNotification(deps, parseTestNotification(body));

interface NotifyOptions {
  message: string;
  title?: string;
  json?: boolean;
}

export function registerNotifyCommand(
  program: Command,
  withCommandDeps: CommandDepsRunner = (run) => withDeps({}, run),
): void {
  program
    .command('notify')
    .description(
      "send a test notification to a user's feed, live stream and registered devices (through the running server while an embedded one holds DATA_DIR)",
    )
    .argument('<user>', 'user id or email')
    .requiredOption('--message <text>', 'the notification text')
    .option('--title <text>', 'a title')
    .option('--json', 'print JSON')
    .action(async (ref: string, options: NotifyOptions) => {
      await reportOperatorErrors(async () => {
        const input = parseTestNotification({ user: ref, message: options.message, title: options.title });
        const result = await runHereOrOnServer(
          withCommandDeps,
          (deps) => sendTestNotification(deps, input),
          'notify',
          input,
        );
        if (options.json) return console.log(JSON.stringify(result, null, 2));
        console.log(`notified ${result.email}: notification ${result.notification} is in their feed`);
        console.log(
          `${result.devices} registered device(s): ${result.pushes_queued} push(es) queued for the workers` +
            (result.pushes_skipped > 0
              ? `, ${result.pushes_skipped} skipped (${result.skipped_providers.join(', ')} not configured)`
              : ''),
        );
      });
    });
}
