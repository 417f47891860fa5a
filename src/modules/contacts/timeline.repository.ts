// SQL of a contact's timeline.
import type { Kysely, Selectable } from 'kysely';
import { narrowed } from '../../db/narrow.js';
import type { DB, Narrowed } from '../../db/types.js';
import type { ActivityListing } from './contacts.columns.js';

/** An activity as read: what it is about typed (contacts.columns.ts). */
export type ActivityRow = Narrowed<
  Selectable<DB['contact_activities']>,
  { listing: ActivityListing | null; lead: Record<string, unknown> | null; search: Record<string, unknown> | null }
>;

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
  return narrowed<ActivityRow>(
    await db
      .insertInto('contact_activities')
      .values({
        ...activity,
        listing: json(activity.listing),
        lead: json(activity.lead),
        search: json(activity.search),
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/** Newest first; ties (one request recording several) by id, so pages never overlap. */
export async function listActivities(
  db: Kysely<DB>,
  contact: string,
  start: number,
  limit: number,
): Promise<ActivityRow[]> {
  return narrowed<ActivityRow[]>(
    await db
      .selectFrom('contact_activities')
      .selectAll()
      .where('contact', '=', contact)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(start)
      .limit(limit)
      .execute(),
  );
}

export async function countActivities(db: Kysely<DB>, contact: string): Promise<number> {
  const row = await db
    .selectFrom('contact_activities')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('contact', '=', contact)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
