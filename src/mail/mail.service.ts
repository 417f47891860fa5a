// The mail platform (decisions §15). Features hand it composed messages with `queueMessages(trx, …)`, in the
// transaction of the change that causes them; it writes a ledger row per message (before anything is sent) and
// enqueues the send job. The job (`sendQueuedMessages`) is idempotent: a row that says sent is never sent again,
// and a retry after a crash mid-send reuses the row's Message-ID, so a receiver can tell the duplicate.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { DB } from '../db/types.js';
import * as repo from './mail.repository.js';
import { SendFailure, type WireMessage } from './transport.js';
import { sendMailTask, SEND_BATCH, STALE_QUEUED_SECONDS } from './mail.tasks.js';
import { trackHtml, trackingUrls, unsubscribeHeaders } from './tracking.js';

/** What sending needs: the SMTP transport, and for linked mailboxes the outbound client and sealed tokens. */
type MailDeps = Pick<Deps, 'db' | 'clock' | 'mail' | 'mailHooks' | 'log' | 'config' | 'outbound' | 'secrets'>;

/** A message a feature wants sent. Addresses are bare (`a@b.example`); `from` defaults to MAIL_FROM. */
export interface OutgoingMessage {
  /** What sends it, for the ledger and `gable mail list` (e.g. `email_campaign`, `alert`). */
  purpose: string;
  campaign?: string | null;
  contact?: string | null;
  from?: string;
  to: string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  html: string | null;
  text: string | null;
  headers?: Record<string, string>;
  /** The brand whose mail this is (its unsubscribe link stops that brand's marketing mail). */
  brand?: string | null;
  /**
   * Marketing mail (decisions §15): links rewritten through signed click redirects, an open pixel, and the
   * `List-Unsubscribe` headers: the one-click link (RFC 8058) when `oneClick` (a message to one recipient, whom the
   * link names) and a mailto to `unsubscribeMailto`, a person who can act on it.
   */
  tracking?: { unsubscribeMailto: string | null; oneClick: boolean };
  /** Send through this linked mailbox (Graph sendMail) instead of SMTP (docs/extmail.md). */
  extmailCredential?: string | null;
}

/**
 * How long a send job holds a message it claimed. Longer than one send can take (the SMTP transport's connection,
 * greeting and socket timeouts, transport.ts), so a live job never loses a message it is still sending.
 */
export const SEND_LEASE_SECONDS = 5 * 60;

/** Header names and values, subject and addresses may not carry CR or LF (header injection). */
const LINE_BREAK = /[\r\n]/;

export class UnsafeMessageError extends Error {}

function assertSafe(message: OutgoingMessage): void {
  const texts = [message.subject, message.from ?? '', ...message.to, ...(message.cc ?? []), ...(message.bcc ?? [])];
  for (const [name, value] of Object.entries(message.headers ?? {})) texts.push(name, value);
  if (texts.some((t) => LINE_BREAK.test(t))) throw new UnsafeMessageError('A mail header may not contain CR or LF');
  if (message.to.length + (message.cc?.length ?? 0) + (message.bcc?.length ?? 0) === 0)
    throw new UnsafeMessageError('A message needs a recipient');
}

/** `<ledger-id@host-of-BASE_URL>` (decisions §15). */
export function messageIdFor(deps: Pick<Deps, 'config'>, id: string): string {
  return `<${id}@${new URL(deps.config.baseUrl).hostname}>`;
}

/**
 * Writes the ledger rows and enqueues their sending, in `trx`. Answers the ledger ids in the order given.
 * `startAfter` delays the send (a scheduled campaign).
 */
export async function queueMessages(
  trx: Kysely<DB>,
  deps: Pick<Deps, 'config' | 'clock' | 'queue'>,
  messages: OutgoingMessage[],
  options: { startAfter?: Date } = {},
): Promise<string[]> {
  messages.forEach(assertSafe);
  const at = deps.clock.now();
  const rows = messages.map((m) => {
    const id = randomUUID();
    let { html, headers = {} } = m;
    if (m.tracking) {
      const urls = trackingUrls(deps.config.secretKey, deps.config.baseUrl, id);
      if (html !== null) html = trackHtml(html, urls);
      headers = { ...headers, ...unsubscribeHeaders(m.tracking.oneClick ? urls : null, m.tracking.unsubscribeMailto) };
    }
    return {
      id,
      campaign: m.campaign ?? null,
      brand: m.brand ?? null,
      contact: m.contact ?? null,
      purpose: m.purpose,
      extmail_credential: m.extmailCredential ?? null,
      message_id: messageIdFor(deps, id),
      from_address: m.from ?? deps.config.mailFrom,
      to_addresses: m.to,
      cc_addresses: m.cc ?? [],
      bcc_addresses: m.bcc ?? [],
      subject: m.subject,
      html,
      text_body: m.text,
      headers,
      not_before: options.startAfter ?? null,
      at,
    };
  });
  await repo.insertMessages(trx, rows);
  for (let i = 0; i < rows.length; i += SEND_BATCH) {
    const ids = rows.slice(i, i + SEND_BATCH).map((r) => r.id);
    await deps.queue.enqueue(
      trx,
      sendMailTask,
      { messages: ids },
      options.startAfter ? { startAfter: options.startAfter } : {},
    );
  }
  return rows.map((r) => r.id);
}

function wireMessage(row: repo.MailRow): WireMessage {
  return {
    id: row.id,
    messageId: row.message_id,
    from: row.from_address,
    to: row.to_addresses,
    cc: row.cc_addresses,
    bcc: row.bcc_addresses,
    subject: row.subject,
    html: row.html,
    text: row.text_body,
    headers: row.headers,
  };
}

/** Sends one ledger row unless it is finished. Answers false when a retry is worth it (a transient failure). */
export async function sendQueuedMessage(deps: MailDeps, id: string): Promise<boolean> {
  const now = deps.clock.now();
  const row = await repo.claimForSending(deps.db, id, now, new Date(now.getTime() + SEND_LEASE_SECONDS * 1000));
  if (!row) return true;
  try {
    // A message of a linked mailbox goes through the provider's API from the user's own address.
    const outcome = row.extmail_credential
      ? await deps.mailHooks.sendThroughMailbox(deps, row.extmail_credential, wireMessage(row))
      : await deps.mail.send(wireMessage(row));
    await repo.recordOutcome(deps.db, id, { state: 'sent', ...outcome, error: null }, deps.clock.now());
    return true;
  } catch (error) {
    if (error instanceof SendFailure && error.permanent) {
      const outcome = error.outcome;
      await repo.recordOutcome(
        deps.db,
        id,
        {
          state: outcome ? 'refused' : 'failed',
          accepted: outcome?.accepted ?? [],
          rejected: outcome?.rejected ?? [],
          response: outcome?.response ?? null,
          error: error.message,
        },
        deps.clock.now(),
      );
      return true;
    }
    deps.log.warn({ err: error, message: id }, 'mail send failed; the job will retry');
    await repo.recordTransientError(
      deps.db,
      id,
      error instanceof Error ? error.message : String(error),
      deps.clock.now(),
    );
    return false;
  }
}

/** The send job: every message of the batch, a few at a time; throws (→ retry) if any failed transiently. */
export async function sendQueuedMessages(deps: MailDeps, ids: string[], concurrency = 5): Promise<void> {
  let next = 0;
  let retry = 0;
  const lane = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      if (!(await sendQueuedMessage(deps, id))) retry++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, lane));
  if (retry > 0) throw new Error(`${retry} of ${ids.length} messages failed transiently`);
}

/**
 * The sweeper (mail.recover, every minute and at worker start): messages a dead worker left — `sending` with a
 * lease that ran out, or due and `queued` for a quarter of an hour — get new send jobs. Safe to run any time: a
 * message is claimed by one job at a time and a sent one is never sent again. Answers how many were re-queued.
 */
export async function recoverStalledMessages(
  deps: Pick<Deps, 'db' | 'clock' | 'queue' | 'log'>,
  limit = 10_000,
): Promise<number> {
  const now = deps.clock.now();
  const ids = await repo.findStalled(deps.db, now, new Date(now.getTime() - STALE_QUEUED_SECONDS * 1000), limit);
  for (let i = 0; i < ids.length; i += SEND_BATCH) {
    const batch = ids.slice(i, i + SEND_BATCH);
    // One live recovery job per batch: a backlog still queued at the next sweep is not enqueued twice.
    await deps.queue.enqueue(
      deps.db,
      sendMailTask,
      { messages: batch },
      { singletonKey: `recover:${batch[0]}:${batch.length}` },
    );
  }
  if (ids.length > 0) deps.log.warn({ messages: ids.length }, 'mail: re-queued messages a stopped worker left unsent');
  return ids.length;
}
