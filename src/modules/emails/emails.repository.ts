// All SQL of email campaigns, and the lookups that resolve their recipients.
import { sql, type Kysely, type Selectable } from 'kysely';
import { narrowed } from '../../db/narrow.js';
import type { DB, Narrowed } from '../../db/types.js';
import type { CampaignRecipients } from './emails.columns.js';

/** A campaign as read: its headers, recipients and failure typed (emails.columns.ts). */
export type CampaignRow = Narrowed<
  Selectable<DB['email_campaigns']>,
  { headers: Record<string, string>; recipients: CampaignRecipients; failure: { code: string; message: string } | null }
>;

export interface CampaignFields {
  subject: string;
  html: string;
  text: string | null;
  include_signature: boolean;
  individual: boolean;
  headers: Record<string, string>;
  recipients: CampaignRecipients;
  notifications_enabled: boolean;
  archive: boolean;
  tags: string[];
  due_at: Date;
  extmail_credential: string | null;
}

function columns(fields: CampaignFields) {
  return { ...fields, headers: JSON.stringify(fields.headers), recipients: JSON.stringify(fields.recipients) };
}

/** The email_quota bookkeeping of a campaign (quota.ts). */
export interface QuotaColumns {
  sender_month: string | null;
  planned_recipients: number | null;
}

/**
 * The recipients that count against a sender's quota in one brand and month: a sent campaign's recipients_count,
 * else the recipients resolved when it was planned. Without the campaign `except` (the one being changed).
 */
export async function quotaUsed(
  db: Kysely<DB>,
  sender: string,
  brand: string,
  month: string,
  except?: string,
): Promise<number> {
  let query = db
    .selectFrom('email_campaigns')
    .select(sql<number>`coalesce(sum(coalesce(recipients_count, planned_recipients, 0)), 0)::int`.as('used'))
    .where('created_by', '=', sender)
    .where('brand', '=', brand)
    .where('individual', '=', true)
    .where('deleted_at', 'is', null)
    .where('sender_month', '=', month);
  if (except) query = query.where('id', '!=', except);
  const { used } = await query.executeTakeFirstOrThrow();
  return used;
}

export async function insertCampaign(
  db: Kysely<DB>,
  brand: string,
  createdBy: string,
  fields: CampaignFields,
  quota: QuotaColumns,
  at: Date,
): Promise<CampaignRow> {
  return narrowed<CampaignRow>(
    await db
      .insertInto('email_campaigns')
      .values({ ...columns(fields), ...quota, brand, created_by: createdBy, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

export async function findCampaign(
  db: Kysely<DB>,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<CampaignRow | undefined> {
  let query = db.selectFrom('email_campaigns').selectAll().where('id', '=', id).where('deleted_at', 'is', null);
  if (options.forUpdate) query = query.forUpdate();
  return narrowed<CampaignRow | undefined>(await query.executeTakeFirst());
}

/** Campaigns by id, deleted ones too (a trigger shows the template it used). */
export async function campaignsByIds(db: Kysely<DB>, ids: string[]): Promise<CampaignRow[]> {
  if (ids.length === 0) return [];
  return narrowed<CampaignRow[]>(await db.selectFrom('email_campaigns').selectAll().where('id', 'in', ids).execute());
}

export async function updateCampaign(
  db: Kysely<DB>,
  id: string,
  fields: CampaignFields,
  quota: QuotaColumns,
  at: Date,
): Promise<CampaignRow> {
  return narrowed<CampaignRow>(
    await db
      .updateTable('email_campaigns')
      .set({ ...columns(fields), ...quota, updated_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/** Makes an unsent campaign a trigger's template: never sent on its own, not counted against the quota. */
export async function markTemplate(db: Kysely<DB>, id: string, at: Date): Promise<void> {
  await db
    .updateTable('email_campaigns')
    .set({ template: true, sender_month: null, planned_recipients: null, updated_at: at })
    .where('id', '=', id)
    .where('executed_at', 'is', null)
    .execute();
}

export async function softDeleteCampaign(db: Kysely<DB>, id: string, at: Date): Promise<void> {
  await db.updateTable('email_campaigns').set({ deleted_at: at, updated_at: at }).where('id', '=', id).execute();
}

/** A chunk of the campaign's recipients was queued, up to the recipient whose key is `key`. */
export async function markQueuedThrough(db: Kysely<DB>, id: string, key: string, at: Date): Promise<void> {
  await db.updateTable('email_campaigns').set({ queued_through: key, updated_at: at }).where('id', '=', id).execute();
}

export async function markExecuted(
  db: Kysely<DB>,
  id: string,
  recipientsCount: number,
  failure: { code: string; message: string } | null,
  at: Date,
): Promise<void> {
  await db
    .updateTable('email_campaigns')
    .set({
      executed_at: at,
      recipients_count: recipientsCount,
      updated_at: at,
      ...(failure ? { failed_at: at, failure: JSON.stringify(failure) } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function countCampaigns(db: Kysely<DB>, brand: string): Promise<number> {
  const row = await db
    .selectFrom('email_campaigns')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('brand', '=', brand)
    .where('deleted_at', 'is', null)
    .where('template', '=', false)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listCampaigns(
  db: Kysely<DB>,
  brand: string,
  start: number,
  limit: number,
): Promise<CampaignRow[]> {
  return narrowed<CampaignRow[]>(
    await db
      .selectFrom('email_campaigns')
      .selectAll()
      .where('brand', '=', brand)
      .where('deleted_at', 'is', null)
      .where('template', '=', false)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(start)
      .limit(limit)
      .execute(),
  );
}

export interface RecipientContact {
  id: string;
  brand: string;
  first_name: string | null;
  last_name: string | null;
  display_name: string;
  emails: string[];
  unsubscribed: boolean;
}

const CONTACT_COLUMNS = ['id', 'brand', 'first_name', 'last_name', 'display_name', 'emails', 'unsubscribed'] as const;

/** Live contacts of the brand among `ids` (others, and other brands', are simply absent). */
export async function contactsOfBrand(db: Kysely<DB>, brand: string, ids: string[]): Promise<RecipientContact[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('contacts')
    .select(CONTACT_COLUMNS)
    .where('brand', '=', brand)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Live contacts of the brand carrying any of `tags`, oldest first (a stable order for the messages). */
export async function contactsWithTags(db: Kysely<DB>, brand: string, tags: string[]): Promise<RecipientContact[]> {
  if (tags.length === 0) return [];
  return db
    .selectFrom('contacts')
    .select(CONTACT_COLUMNS)
    .where('brand', '=', brand)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`tags && ${sql.val(tags)}::text[]`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Which of `tags` at least one live contact of the brand carries. */
export async function existingTags(db: Kysely<DB>, brand: string, tags: string[]): Promise<Set<string>> {
  if (tags.length === 0) return new Set();
  const rows = await sql<{ tag: string }>`
    select distinct t.tag from contacts c, unnest(c.tags) as t(tag)
    where c.brand = ${brand} and c.deleted_at is null and t.tag = any(${sql.val(tags)}::text[])
  `.execute(db);
  return new Set(rows.rows.map((r) => r.tag));
}

/** Email keys (lower-cased) of the brand's unsubscribed live contacts among `keys`. */
export async function unsubscribedKeys(db: Kysely<DB>, brand: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await sql<{ key: string }>`
    select distinct k.key from contacts c, unnest(c.email_keys) as k(key)
    where c.brand = ${brand} and c.deleted_at is null and c.unsubscribed and k.key = any(${sql.val(keys)}::text[])
  `.execute(db);
  return new Set(rows.rows.map((r) => r.key));
}

export interface RecipientUser {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
}

/** Live users with a live membership in any of `brands`. */
export async function membersOf(db: Kysely<DB>, brands: string[]): Promise<RecipientUser[]> {
  if (brands.length === 0) return [];
  return db
    .selectFrom('users as u')
    .innerJoin('memberships as m', 'm.user', 'u.id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name'])
    .distinct()
    .where('m.brand', 'in', brands)
    .where('m.deleted_at', 'is', null)
    .where('u.deleted_at', 'is', null)
    .orderBy('u.id')
    .execute();
}

export interface Sender {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  email_signature: string;
}

export async function findSender(db: Kysely<DB>, id: string): Promise<Sender | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'email_signature'])
    .where('id', '=', id)
    .executeTakeFirst();
}
