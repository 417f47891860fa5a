// `gable mail list|show`: the messages the server sent or, in embedded mode, wrote as .eml files (decisions §15).
// While `gable serve` holds the embedded database, they ask that server (runHereOrOnServer).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import {
  readConfig,
  runHereOrOnServer,
  withDeps,
  type CommandDepsRunner,
  reportOperatorErrors,
} from '../platform/commands.js';
import type { Deps } from '../platform/deps.js';
import { errors } from '../errors.js';
import type { OperatorAction } from '../platform/operator-channel.js';
import { isUuid } from '../lib/uuid.js';
import type { MailRow } from './mail.repository.js';
// The services load when a command runs (import() in its action): registering it loads only the command table.

/** A ledger row as `gable mail list` shows it: everything but the bodies, times as ISO text (also over JSON). */
type ListedMessage = Omit<MailRow, 'html' | 'text_body' | 'created_at'> & { created_at: string };

function summary(row: ListedMessage): string {
  const to = [...row.to_addresses, ...row.cc_addresses, ...row.bcc_addresses];
  const shown = to.length > 3 ? `${to.slice(0, 3).join(', ')} +${to.length - 3}` : to.join(', ');
  return `${row.id}  ${row.created_at}  ${row.state.padEnd(7)}  ${shown}  ${JSON.stringify(row.subject)}`;
}

async function listedMessages(deps: Deps, query: { limit: number; campaign?: string }): Promise<ListedMessage[]> {
  const { listMessages } = await import('./mail.repository.js');
  const rows = await listMessages(deps.db, query);
  return JSON.parse(JSON.stringify(rows.map(({ html: _h, text_body: _t, ...row }) => row))) as ListedMessage[];
}

/** The .eml file as written (embedded mode), else the ledger row and the relay's answer. */
async function shownMessage(deps: Deps, id: string): Promise<string> {
  const [{ findMessage }, { emlPath }] = await Promise.all([import('./mail.repository.js'), import('./transport.js')]);
  const row = await findMessage(deps.db, id);
  if (!row) throw errors.notFound(`Message ${id}`);
  const eml = await readFile(emlPath(deps.config, row.id), 'utf8').catch(() => null);
  if (eml !== null) return eml;
  return [
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
  ].join('\n');
}

/**
 * `gable mail list|show` while an embedded server holds DATA_DIR: the same answers, read in that server
 * (platform/operator-channel.ts). The bodies come from a local operator, but are checked like any input.
 */
export const mailListOperatorAction: OperatorAction = (deps, body) => {
  const { limit, campaign } = (body ?? {}) as { limit?: unknown; campaign?: unknown };
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw errors.invalidField('limit', 'must be an integer from 1 to 1000');
  if (campaign !== undefined && (typeof campaign !== 'string' || !isUuid(campaign)))
    throw errors.invalidField('campaign', 'must be a campaign id (uuid)');
  return listedMessages(deps, { limit, ...(campaign ? { campaign: campaign.toLowerCase() } : {}) });
};

export const mailShowOperatorAction: OperatorAction = (deps, body) => {
  const { id } = (body ?? {}) as { id?: unknown };
  if (typeof id !== 'string' || !isUuid(id)) throw errors.invalidField('id', 'must be a message id (uuid)');
  return shownMessage(deps, id.toLowerCase());
};

export function registerMailCommands(
  parent: Command,
  withCommandDeps: CommandDepsRunner = (run) => withDeps({}, run),
): void {
  const mail = parent
    .command('mail')
    .description('outgoing mail: the ledger of every message, and the .eml files of embedded mode');

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
      await reportOperatorErrors(async () => {
        const query = { limit, ...(options.campaign ? { campaign: options.campaign.toLowerCase() } : {}) };
        const rows = await runHereOrOnServer(
          withCommandDeps,
          (deps) => listedMessages(deps, query),
          'mail.list',
          query,
        );
        if (options.json) console.log(JSON.stringify(rows, null, 2));
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
      await reportOperatorErrors(async () => {
        const text = await runHereOrOnServer(
          withCommandDeps,
          (deps) => shownMessage(deps, id.toLowerCase()),
          'mail.show',
          { id: id.toLowerCase() },
        );
        console.log(text);
      });
    });

  mail
    .command('events-key')
    .description('the key a delivery-event forwarder signs POST /emails/events with (Standard Webhooks form, whsec_…)')
    .action(async () => {
      const { eventsSecret } = await import('./events-feed.js');
      // Derived from SECRET_KEY: the same on every instance, and it changes only when SECRET_KEY does.
      console.log(eventsSecret(readConfig().secretKey));
    });
}
