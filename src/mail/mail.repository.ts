// All SQL of the mail ledger.
import { sql, type Kysely, type Selectable } from 'kysely';
import { narrowed } from '../db/narrow.js';
import type { DB, Narrowed } from '../db/types.js';
import type { MailEventKind, MailState } from './mail.columns.js';

/** A message as read: its headers and state typed (mail.columns.ts). */
export type MailRow = Narrowed<Selectable<DB['mail_messages']>, { headers: Record<string, string>; state: MailState }>;

export interface NewMailRow {
  id: string;
  campaign: string | null;
  brand: string | null;
  contact: string | null;
  purpose: string;
  extmail_credential?: string | null;
  message_id: string;
  from_address: string;
  to_addresses: string[];
  cc_addresses: string[];
  bcc_addresses: string[];
  subject: string;
  html: string | null;
  text_body: string | null;
  headers: Record<string, string>;
  not_before: Date | null;
  at: Date;
}

export async function insertMessages(db: Kysely<DB>, rows: NewMailRow[]): Promise<void> {
  const BATCH = 500;
  for (let i = 0; i < rows.length; i += BATCH) {
    await db
      .insertInto('mail_messages')
      .values(
        rows.slice(i, i + BATCH).map(({ at, headers, ...row }) => ({
          ...row,
          headers: JSON.stringify(headers),
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
  }
}

export async function findMessage(db: Kysely<DB>, id: string): Promise<MailRow | undefined> {
  return narrowed<MailRow | undefined>(
    await db.selectFrom('mail_messages').selectAll().where('id', '=', id).executeTakeFirst(),
  );
}

/**
 * Claims a message for sending until `until`: counts the attempt and marks it `sending`. Answers undefined — and
 * the caller sends nothing — when it is finished (sent, refused, failed) or another job holds it (its lease has
 * not run out). A lease that ran out means the job holding it died: the message is sent again, same Message-ID.
 */
export async function claimForSending(db: Kysely<DB>, id: string, at: Date, until: Date): Promise<MailRow | undefined> {
  return narrowed<MailRow | undefined>(
    await db
      .updateTable('mail_messages')
      .set({ state: 'sending', attempts: sql`attempts + 1`, claimed_until: until, updated_at: at })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('state', '=', 'queued'),
          eb.and([
            eb('state', '=', 'sending'),
            eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]),
          ]),
        ]),
      )
      .returningAll()
      .executeTakeFirst(),
  );
}

/**
 * Messages a dead worker left behind: `sending` with a lease that ran out, or `queued` (and due) for longer than
 * `staleQueued` — their job died before claiming them. Oldest first, at most `limit`.
 */
export async function findStalled(db: Kysely<DB>, at: Date, staleQueued: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('mail_messages')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'sending'), eb('claimed_until', '<=', at)]),
        eb.and([
          eb('state', '=', 'queued'),
          eb('created_at', '<=', staleQueued),
          eb.or([eb('not_before', 'is', null), eb('not_before', '<=', staleQueued)]),
        ]),
      ]),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function recordOutcome(
  db: Kysely<DB>,
  id: string,
  outcome: { state: MailState; accepted: string[]; rejected: string[]; response: string | null; error: string | null },
  at: Date,
): Promise<void> {
  await db
    .updateTable('mail_messages')
    .set({
      state: outcome.state,
      accepted: outcome.accepted,
      rejected: outcome.rejected,
      smtp_response: outcome.response,
      last_error: outcome.error,
      claimed_until: null,
      updated_at: at,
      ...(outcome.state === 'failed' ? {} : { sent_at: at }),
    })
    .where('id', '=', id)
    .execute();
}

export async function recordTransientError(db: Kysely<DB>, id: string, error: string, at: Date): Promise<void> {
  // Released: the job's retry (pg-boss) claims it again.
  await db
    .updateTable('mail_messages')
    .set({ last_error: error, claimed_until: null, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function listMessages(db: Kysely<DB>, options: { limit: number; campaign?: string }): Promise<MailRow[]> {
  let query = db
    .selectFrom('mail_messages')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit);
  if (options.campaign) query = query.where('campaign', '=', options.campaign);
  return narrowed<MailRow[]>(await query.execute());
}

export interface CampaignCounts {
  sent: number;
  accepted: number;
  rejected: number;
  /** Ledger rows written (messages stored for sending). */
  stored: number;
}

/** Counters of campaigns from their ledger rows (spec 2.6: sent, accepted, rejected). */
export async function campaignCounters(db: Kysely<DB>, campaigns: string[]): Promise<Map<string, CampaignCounts>> {
  const result = new Map<string, CampaignCounts>();
  if (campaigns.length === 0) return result;
  const rows = await db
    .selectFrom('mail_messages')
    .select([
      'campaign',
      sql<number>`count(*) filter (where state in ('sent', 'refused'))::int`.as('sent'),
      sql<number>`coalesce(sum(cardinality(accepted)), 0)::int`.as('accepted'),
      sql<number>`coalesce(sum(cardinality(rejected)), 0)::int`.as('rejected'),
      sql<number>`count(*)::int`.as('stored'),
    ])
    .where('campaign', 'in', campaigns)
    .groupBy('campaign')
    .execute();
  for (const row of rows)
    result.set(row.campaign!, { sent: row.sent, accepted: row.accepted, rejected: row.rejected, stored: row.stored });
  return result;
}

export interface NewMailEvent {
  message: string;
  campaign: string | null;
  kind: MailEventKind;
  recipient: string;
  detail: Record<string, unknown> | null;
  occurredAt: Date;
  at: Date;
}

/** Records an event once per (message, kind, recipient); answers false when it was known already. */
export async function insertEvent(db: Kysely<DB>, event: NewMailEvent): Promise<boolean> {
  const row = await db
    .insertInto('mail_events')
    .values({
      message: event.message,
      campaign: event.campaign,
      kind: event.kind,
      recipient: event.recipient,
      detail: event.detail ? JSON.stringify(event.detail) : null,
      occurred_at: event.occurredAt,
      created_at: event.at,
    })
    .onConflict((oc) => oc.columns(['message', 'kind', 'recipient']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Ledger rows by their Message-ID header values (`<id@host>`). */
export async function findByMessageIds(
  db: Kysely<DB>,
  messageIds: string[],
): Promise<Pick<MailRow, 'id' | 'campaign' | 'message_id' | 'to_addresses' | 'cc_addresses' | 'bcc_addresses'>[]> {
  if (messageIds.length === 0) return [];
  return narrowed<
    Pick<MailRow, 'id' | 'campaign' | 'message_id' | 'to_addresses' | 'cc_addresses' | 'bcc_addresses'>[]
  >(
    await db
      .selectFrom('mail_messages')
      .select(['id', 'campaign', 'message_id', 'to_addresses', 'cc_addresses', 'bcc_addresses'])
      .where('message_id', 'in', messageIds)
      .execute(),
  );
}

/** Remembers that an address asked to stop the brand's marketing mail. */
export async function insertUnsubscribe(
  db: Kysely<DB>,
  brand: string,
  emailKey: string,
  message: string,
  at: Date,
): Promise<void> {
  await db
    .insertInto('mail_unsubscribes')
    .values({ brand, email_key: emailKey, message, created_at: at })
    .onConflict((oc) => oc.columns(['brand', 'email_key']).doNothing())
    .execute();
}

/** Which of `keys` (lower-cased addresses) asked to stop the brand's marketing mail. */
export async function unsubscribedAddresses(db: Kysely<DB>, brand: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('mail_unsubscribes')
    .select('email_key')
    .where('brand', '=', brand)
    .where('email_key', 'in', keys)
    .execute();
  return new Set(rows.map((r) => r.email_key));
}

export type EventCounts = Record<MailEventKind, number>;

/** Per campaign, how many (message, recipient) pairs had each kind of event: unique recipients, not hits. */
export async function campaignEventCounters(db: Kysely<DB>, campaigns: string[]): Promise<Map<string, EventCounts>> {
  const result = new Map<string, EventCounts>();
  if (campaigns.length === 0) return result;
  const rows = await db
    .selectFrom('mail_events')
    .select(['campaign', 'kind', sql<number>`count(*)::int`.as('n')])
    .where('campaign', 'in', campaigns)
    .groupBy(['campaign', 'kind'])
    .execute();
  for (const row of rows) {
    const counts = result.get(row.campaign!) ?? {
      opened: 0,
      clicked: 0,
      unsubscribed: 0,
      delivered: 0,
      failed: 0,
      complained: 0,
    };
    counts[row.kind as MailEventKind] = row.n;
    result.set(row.campaign!, counts);
  }
  return result;
}
