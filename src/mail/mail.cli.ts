// `gable mail list|show`: the messages the server sent or, in embedded mode, wrote as .eml files (decisions §15).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { withDeps, type CommandDepsRunner } from '../cli/context.js';
import { isUuid } from '../lib/uuid.js';
import { findMessage, listMessages, type MailRow } from './mail.repository.js';
import { emlPath } from './transport.js';

function summary(row: MailRow): string {
  const to = [...row.to_addresses, ...row.cc_addresses, ...row.bcc_addresses];
  const shown = to.length > 3 ? `${to.slice(0, 3).join(', ')} +${to.length - 3}` : to.join(', ');
  return `${row.id}  ${row.created_at.toISOString()}  ${row.state.padEnd(7)}  ${shown}  ${JSON.stringify(row.subject)}`;
}

export function registerMailCommands(parent: Command, withCommandDeps: CommandDepsRunner = (run) => withDeps({}, run)): void {
  const mail = parent.command('mail').description('outgoing mail: the ledger of every message, and the .eml files of embedded mode');

  mail
    .command('list')
    .description('the newest messages: id, time, state (queued, sending, sent, refused, failed), recipients, subject')
    .option('--limit <n>', 'how many (1–1000)', '20')
    .option('--campaign <id>', 'only the messages of this email campaign')
    .option('--json', 'print JSON')
    .action(async (options: { limit: string; campaign?: string; json?: boolean }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
        console.error('--limit must be an integer from 1 to 1000');
        process.exitCode = 2;
        return;
      }
      if (options.campaign !== undefined && !isUuid(options.campaign)) {
        console.error(`--campaign ${options.campaign}: expected a campaign id (uuid)`);
        process.exitCode = 2;
        return;
      }
      await withCommandDeps(async (deps) => {
        const rows = await listMessages(deps.db, { limit, ...(options.campaign ? { campaign: options.campaign.toLowerCase() } : {}) });
        if (options.json) console.log(JSON.stringify(rows.map(({ html: _h, text_body: _t, ...row }) => row), null, 2));
        else if (rows.length === 0) console.log('no messages');
        else for (const row of rows) console.log(summary(row));
      });
    });

  mail
    .command('show')
    .description('one message: the .eml file as written (embedded mode), else its ledger row and the relay’s answer')
    .argument('<id>', 'message id from `gable mail list`')
    .action(async (id: string) => {
      if (!isUuid(id)) {
        console.error(`${id}: expected a message id (uuid) from gable mail list`);
        process.exitCode = 2;
        return;
      }
      await withCommandDeps(async (deps) => {
        const row = await findMessage(deps.db, id.toLowerCase());
        if (!row) {
          console.error(`No message ${id}`);
          process.exitCode = 1;
          return;
        }
        const eml = await readFile(emlPath(deps.config, row.id), 'utf8').catch(() => null);
        if (eml !== null) {
          console.log(eml);
          return;
        }
        console.log(
          [
            `Message-ID: ${row.message_id}`,
            `State: ${row.state} (attempts: ${row.attempts})`,
            `From: ${row.from_address}`,
            `To: ${row.to_addresses.join(', ')}`,
            ...(row.cc_addresses.length ? [`Cc: ${row.cc_addresses.join(', ')}`] : []),
            ...(row.bcc_addresses.length ? [`Bcc: ${row.bcc_addresses.join(', ')}`] : []),
            `Subject: ${row.subject}`,
            `Accepted: ${row.accepted.join(', ') || '-'}`,
            `Rejected: ${row.rejected.join(', ') || '-'}`,
            `Relay answer: ${row.smtp_response ?? '-'}`,
            ...(row.last_error ? [`Last error: ${row.last_error}`] : []),
            '',
            row.text_body ?? row.html ?? '',
          ].join('\n'),
        );
      });
    });
}
