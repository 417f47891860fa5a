// All SQL of brand triggers: the settings, exclusions, and the contacts a sweep sends to.
import { sql, type Kysely, type Selectable } from 'kysely';
import { narrowed } from '../../db/narrow.js';
import type { DB, Narrowed } from '../../db/types.js';
import { arrayLiteral } from '../../db/arrays.js';
import type { TriggerEventType } from './triggers.columns.js';

/** A brand trigger as read: its event typed (triggers.columns.ts). */
export type BrandTriggerRow = Narrowed<Selectable<DB['brand_triggers']>, { event_type: TriggerEventType }>;

export interface BrandTriggerSettings {
  user: string;
  wait_for: number;
  time: number | null;
  subject: string;
  html: string;
}

/** Creates or replaces the brand's trigger of this event; a new one sweeps from `at` (nothing already past). */
export async function upsertBrandTrigger(
  db: Kysely<DB>,
  brand: string,
  eventType: TriggerEventType,
  settings: BrandTriggerSettings,
  at: Date,
): Promise<BrandTriggerRow> {
  return narrowed<BrandTriggerRow>(
    await db
      .insertInto('brand_triggers')
      .values({
        brand,
        event_type: eventType,
        ...settings,
        enabled: true,
        swept_until: at,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['brand', 'event_type']).doUpdateSet({ ...settings, updated_at: at }))
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

export async function listBrandTriggers(db: Kysely<DB>, brand: string): Promise<BrandTriggerRow[]> {
  return narrowed<BrandTriggerRow[]>(
    await db.selectFrom('brand_triggers').selectAll().where('brand', '=', brand).orderBy('event_type').execute(),
  );
}

export async function findBrandTrigger(
  db: Kysely<DB>,
  brand: string,
  where: { id: string } | { eventType: TriggerEventType },
): Promise<BrandTriggerRow | undefined> {
  const query = db.selectFrom('brand_triggers').selectAll().where('brand', '=', brand);
  return narrowed<BrandTriggerRow | undefined>(
    await ('id' in where ? query.where('id', '=', where.id) : query.where('event_type', '=', where.eventType))
      .forUpdate()
      .executeTakeFirst(),
  );
}

/** Enabling sweeps from `at`: what fired while it was off is not sent late. */
export async function setEnabled(db: Kysely<DB>, id: string, enabled: boolean, at: Date): Promise<BrandTriggerRow> {
  return narrowed<BrandTriggerRow>(
    await db
      .updateTable('brand_triggers')
      .set(enabled ? { enabled, swept_until: at, updated_at: at } : { enabled, updated_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

export async function addExclusion(db: Kysely<DB>, brandTrigger: string, contact: string, at: Date): Promise<void> {
  await db
    .insertInto('brand_trigger_exclusions')
    .values({ brand_trigger: brandTrigger, contact, created_at: at })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeExclusion(db: Kysely<DB>, brandTrigger: string, contact: string): Promise<void> {
  await db
    .deleteFrom('brand_trigger_exclusions')
    .where('brand_trigger', '=', brandTrigger)
    .where('contact', '=', contact)
    .execute();
}

export async function exclusionsOf(db: Kysely<DB>, ids: string[]): Promise<Map<string, string[]>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('brand_trigger_exclusions')
    .select(['brand_trigger', 'contact'])
    .where('brand_trigger', 'in', ids)
    .orderBy('created_at')
    .execute();
  const byTrigger = new Map<string, string[]>();
  for (const row of rows) byTrigger.set(row.brand_trigger, [...(byTrigger.get(row.brand_trigger) ?? []), row.contact]);
  return byTrigger;
}

/** The next enabled brand trigger with time left to sweep, locked; others' workers skip it. */
export async function nextToSweep(
  db: Kysely<DB>,
  now: Date,
): Promise<(BrandTriggerRow & { timezone: string }) | undefined> {
  return narrowed<(BrandTriggerRow & { timezone: string }) | undefined>(
    await db
      .selectFrom('brand_triggers as b')
      .innerJoin('users as u', 'u.id', 'b.user')
      .selectAll('b')
      .select('u.timezone')
      .where('b.enabled', '=', true)
      .where('b.swept_until', '<', now)
      .orderBy('b.swept_until')
      .limit(1)
      .forUpdate('b')
      .skipLocked()
      .executeTakeFirst(),
  );
}

export async function setSweptUntil(db: Kysely<DB>, id: string, at: Date): Promise<void> {
  await db.updateTable('brand_triggers').set({ swept_until: at }).where('id', '=', id).execute();
}

/**
 * Live contacts of the brand whose date of the event falls on one of `monthDays` (`MM-DD`), that have an email and
 * have not unsubscribed, are not excluded, have no trigger of their own for the event, and were not yet sent this
 * occurrence. `among`: only these contacts (a chunk of an earlier answer, checked again).
 */
export async function contactsToSend(
  db: Kysely<DB>,
  trigger: BrandTriggerRow,
  monthDays: string[],
  eventDate: string,
  among?: readonly string[],
): Promise<string[]> {
  const date = sql.ref(`c.${trigger.event_type}`);
  const rows = await sql<{ id: string }>`
    select c.id from contacts c
    where c.brand = ${trigger.brand} and c.deleted_at is null and not c.unsubscribed and cardinality(c.emails) > 0
      ${among ? sql`and c.id = any(${arrayLiteral(among)}::uuid[])` : sql``}
      and ${date} is not null and substr(${date}, 6) = any(${sql.val(monthDays)}::text[])
      and not exists (select 1 from brand_trigger_exclusions x where x.brand_trigger = ${trigger.id} and x.contact = c.id)
      and not exists (select 1 from triggers t where t.contact = c.id and t.event_type = ${trigger.event_type} and t.deleted_at is null)
      and not exists (select 1 from brand_trigger_sends s where s.brand_trigger = ${trigger.id} and s.contact = c.id and s.event_date = ${eventDate}::date)
    order by c.id
  `.execute(db);
  return rows.rows.map((r) => r.id);
}

export async function recordSends(
  db: Kysely<DB>,
  brandTrigger: string,
  contacts: string[],
  eventDate: string,
  campaign: string,
): Promise<void> {
  if (contacts.length === 0) return;
  await db
    .insertInto('brand_trigger_sends')
    .values(contacts.map((contact) => ({ brand_trigger: brandTrigger, contact, event_date: eventDate, campaign })))
    .execute();
}
