// All SQL of triggers.
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import { narrowed } from '../../db/narrow.js';
import type { DB, Narrowed } from '../../db/types.js';
import type { TriggerAction, TriggerEventType, TriggerFailure } from './triggers.columns.js';

/** A trigger as read: its event, action and failure typed (triggers.columns.ts). */
export type TriggerRow = Narrowed<
  Selectable<DB['triggers']>,
  { event_type: TriggerEventType; action: TriggerAction; failure: TriggerFailure | null }
>;

export interface TriggerFields {
  user: string;
  event_type: TriggerEventType;
  wait_for: number;
  time: number | null;
  recurring: boolean;
  campaign: string;
  effective_at: Date;
}

export interface NewTrigger extends TriggerFields {
  brand: string;
  created_by: string;
  contact: string;
  scheduled_after: string | null;
}

export async function insertTrigger(db: Kysely<DB>, trigger: NewTrigger, at: Date): Promise<TriggerRow> {
  return narrowed<TriggerRow>(
    await db
      .insertInto('triggers')
      .values({ ...trigger, action: 'schedule_email', created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

export async function findTrigger(
  db: Kysely<DB>,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<TriggerRow | undefined> {
  let query = db.selectFrom('triggers').selectAll().where('id', '=', id).where('deleted_at', 'is', null);
  if (options.forUpdate) query = query.forUpdate();
  return narrowed<TriggerRow | undefined>(await query.executeTakeFirst());
}

export async function updateTrigger(
  db: Kysely<DB>,
  id: string,
  set: Updateable<DB['triggers']>,
  at: Date,
): Promise<TriggerRow> {
  return narrowed<TriggerRow>(
    await db
      .updateTable('triggers')
      .set({ ...set, updated_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/**
 * New fire times for many triggers in one statement per 1,000 (re-planning after a time-zone or date change):
 * a user with thousands of pending triggers costs a few statements, not two per trigger.
 */
export async function moveFireTimes(
  db: Kysely<DB>,
  moves: readonly { id: string; effective_at: Date }[],
  at: Date,
): Promise<void> {
  for (let i = 0; i < moves.length; i += MOVES_PER_STATEMENT) {
    const chunk = moves.slice(i, i + MOVES_PER_STATEMENT);
    await sql`
      update triggers as t set effective_at = m.effective_at, updated_at = ${at}
      from unnest(${chunk.map((move) => move.id)}::uuid[], ${chunk.map((move) => move.effective_at.toISOString())}::timestamptz[]) as m(id, effective_at)
      where t.id = m.id
    `.execute(db);
  }
}

const MOVES_PER_STATEMENT = 1000;

export async function markExecuted(db: Kysely<DB>, id: string, sentCampaign: string, at: Date): Promise<void> {
  await db
    .updateTable('triggers')
    .set({ executed_at: at, sent_campaign: sentCampaign, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function markFailed(db: Kysely<DB>, ids: string[], failure: TriggerFailure, at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('triggers')
    .set({ failed_at: at, failure: JSON.stringify(failure), updated_at: at })
    .where('id', 'in', ids)
    .execute();
}

/** The trigger and the live triggers after it in its recurring chain (each names the one before). */
export async function chainFrom(db: Kysely<DB>, id: string): Promise<TriggerRow[]> {
  const rows = await sql<TriggerRow>`
    with recursive chain as (
      select * from triggers where id = ${id}
      union all
      select t.* from triggers t join chain c on t.scheduled_after = c.id where t.deleted_at is null
    )
    select * from chain
  `.execute(db);
  return rows.rows;
}

export async function softDeleteTriggers(db: Kysely<DB>, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('triggers')
    .set({ deleted_at: at, updated_at: at })
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Whether a live trigger other than `except` uses the campaign as its template. */
export async function campaignInUse(db: Kysely<DB>, campaign: string, except: string[] = []): Promise<boolean> {
  let query = db.selectFrom('triggers').select('id').where('campaign', '=', campaign).where('deleted_at', 'is', null);
  if (except.length > 0) query = query.where('id', 'not in', except);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** A pending trigger with what plans it: the contact's date of its event and the user's time zone. */
export interface PlanningRow extends TriggerRow {
  contact_date: string | null;
  contact_live: boolean;
  timezone: string;
}

const pending = (db: Kysely<DB>) =>
  db
    .selectFrom('triggers as t')
    .innerJoin('contacts as c', 'c.id', 't.contact')
    .innerJoin('users as u', 'u.id', 't.user')
    .selectAll('t')
    .select([
      sql<
        string | null
      >`case t.event_type when 'birthday' then c.birthday when 'home_anniversary' then c.home_anniversary else c.wedding_anniversary end::text`.as(
        'contact_date',
      ),
      sql<boolean>`c.deleted_at is null`.as('contact_live'),
      'u.timezone',
    ])
    .where('t.deleted_at', 'is', null)
    .where('t.executed_at', 'is', null)
    .where('t.failed_at', 'is', null);

/** Pending triggers of these contacts, locked: a contact's date changed (or it was deleted). */
export async function pendingOfContacts(db: Kysely<DB>, contacts: string[]): Promise<PlanningRow[]> {
  if (contacts.length === 0) return [];
  return narrowed<PlanningRow[]>(await pending(db).where('t.contact', 'in', contacts).forUpdate('t').execute());
}

/** Pending triggers of a user, locked: their time zone changed. */
export async function pendingOfUser(db: Kysely<DB>, user: string): Promise<PlanningRow[]> {
  return narrowed<PlanningRow[]>(await pending(db).where('t.user', '=', user).forUpdate('t').execute());
}

/** One trigger with its planning data, locked (the execution job). */
export async function planningRow(db: Kysely<DB>, id: string): Promise<PlanningRow | undefined> {
  return narrowed<PlanningRow | undefined>(await pending(db).where('t.id', '=', id).forUpdate('t').executeTakeFirst());
}

export interface TriggerFilter {
  brand: string;
  eventTypes?: string[];
  actions?: string[];
  contacts?: string[];
}

function filtered(db: Kysely<DB>, filter: TriggerFilter) {
  let query = db.selectFrom('triggers').where('brand', '=', filter.brand).where('deleted_at', 'is', null);
  if (filter.eventTypes?.length) query = query.where('event_type', 'in', filter.eventTypes as TriggerEventType[]);
  if (filter.actions?.length) query = query.where('action', 'in', filter.actions as 'schedule_email'[]);
  if (filter.contacts?.length) query = query.where('contact', 'in', filter.contacts);
  return query;
}

export async function countTriggers(db: Kysely<DB>, filter: TriggerFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listTriggers(
  db: Kysely<DB>,
  filter: TriggerFilter,
  start: number,
  limit: number,
): Promise<TriggerRow[]> {
  return narrowed<TriggerRow[]>(
    await filtered(db, filter).selectAll().orderBy('effective_at').orderBy('id').offset(start).limit(limit).execute(),
  );
}

/**
 * The current triggers of these contacts, by fire time: each live trigger except an executed one whose recurring
 * chain goes on (its successor stands for it).
 */
export async function currentOfContacts(db: Kysely<DB>, contacts: string[]): Promise<TriggerRow[]> {
  if (contacts.length === 0) return [];
  return narrowed<TriggerRow[]>(
    await db
      .selectFrom('triggers as t')
      .selectAll('t')
      .where('t.contact', 'in', contacts)
      .where('t.deleted_at', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('triggers as n')
              .select('n.id')
              .whereRef('n.scheduled_after', '=', 't.id')
              .where('n.deleted_at', 'is', null),
          ),
        ),
      )
      .orderBy('t.effective_at')
      .orderBy('t.id')
      .execute(),
  );
}
