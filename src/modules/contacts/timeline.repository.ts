// SQL of a contact's timeline.
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/types.js';
import type { ActivityListing, ContactActivitiesTable } from './contacts.tables.js';

export type ActivityRow = Selectable<ContactActivitiesTable>;

export interface NewActivity {
  contact: string;
  brand: string;
  action: string;
  listing: ActivityListing | null;
  lead: Record<string, unknown> | null;
  search: Record<string, unknown> | null;
  notes: string | null;
  created_by: string | null;
  created_at: Date;
}

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

export async function insertActivity(db: Kysely<DB>, activity: NewActivity): Promise<ActivityRow> {
  return db
    .insertInto('contact_activities')
    .values({ ...activity, listing: json(activity.listing), lead: json(activity.lead), search: json(activity.search) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Newest first; ties (one request recording several) by id, so pages never overlap. */
export async function listActivities(
  db: Kysely<DB>,
  contact: string,
  start: number,
  limit: number,
): Promise<ActivityRow[]> {
  return db
    .selectFrom('contact_activities')
    .selectAll()
    .where('contact', '=', contact)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(start)
    .limit(limit)
    .execute();
}

export async function countActivities(db: Kysely<DB>, contact: string): Promise<number> {
  const row = await db
    .selectFrom('contact_activities')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('contact', '=', contact)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
