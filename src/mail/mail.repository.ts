// All SQL of the mail ledger.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/types.js';
import type { MailMessagesTable, MailState } from './mail.tables.js';

export type MailRow = Selectable<MailMessagesTable>;

export interface NewMailRow {
  id: string;
  campaign: string | null;
  contact: string | null;
  purpose: string;
  message_id: string;
  from_address: string;
  to_addresses: string[];
  cc_addresses: string[];
  bcc_addresses: string[];
  subject: string;
  html: string | null;
  text_body: string | null;
  headers: Record<string, string>;
  at: Date;
}

export async function insertMessages(db: Kysely<DB>, rows: NewMailRow[]): Promise<void> {
  const BATCH = 500;
  for (let i = 0; i < rows.length; i += BATCH) {
    await db
      .insertInto('mail_messages')
      .values(rows.slice(i, i + BATCH).map(({ at, headers, ...row }) => ({ ...row, headers: JSON.stringify(headers), created_at: at, updated_at: at })))
      .execute();
  }
}

export async function findMessage(db: Kysely<DB>, id: string): Promise<MailRow | undefined> {
  return db.selectFrom('mail_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Claims a message for sending: counts the attempt and marks it `sending`, unless it is finished already
 * (sent, refused or failed): then answers undefined and the caller sends nothing.
 */
export async function claimForSending(db: Kysely<DB>, id: string, at: Date): Promise<MailRow | undefined> {
  return db
    .updateTable('mail_messages')
    .set({ state: 'sending', attempts: sql`attempts + 1`, updated_at: at })
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'sending'])
    .returningAll()
    .executeTakeFirst();
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
      updated_at: at,
      ...(outcome.state === 'failed' ? {} : { sent_at: at }),
    })
    .where('id', '=', id)
    .execute();
}

export async function recordTransientError(db: Kysely<DB>, id: string, error: string, at: Date): Promise<void> {
  await db.updateTable('mail_messages').set({ last_error: error, updated_at: at }).where('id', '=', id).execute();
}

export async function listMessages(db: Kysely<DB>, options: { limit: number; campaign?: string }): Promise<MailRow[]> {
  let query = db.selectFrom('mail_messages').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit);
  if (options.campaign) query = query.where('campaign', '=', options.campaign);
  return query.execute();
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
  for (const row of rows) result.set(row.campaign!, { sent: row.sent, accepted: row.accepted, rejected: row.rejected, stored: row.stored });
  return result;
}
