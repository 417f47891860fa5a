// SQL of lead channels (the contact side of a lead is in contacts.repository.ts).
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/types.js';

export type LeadChannelRow = Selectable<DB['lead_channels']>;

export async function insertChannel(
  db: Kysely<DB>,
  channel: { brand: string; user_id: string | null; title: string | null; source_type: string; at: Date },
): Promise<LeadChannelRow> {
  const { at, ...values } = channel;
  return db
    .insertInto('lead_channels')
    .values({ ...values, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A channel with a fixed id, unless that id already has a row (live or deleted: a channel someone deleted stays
 * deleted). Answers whether it was written. For seeds, which derive their ids.
 */
export async function insertChannelOnce(
  db: Kysely<DB>,
  channel: { id: string; brand: string; user_id: string; title: string; source_type: string; at: Date },
): Promise<boolean> {
  const { at, ...values } = channel;
  const written = await db
    .insertInto('lead_channels')
    .values({ ...values, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(written.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findChannel(db: Kysely<DB>, id: string): Promise<LeadChannelRow | undefined> {
  return db
    .selectFrom('lead_channels')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listChannels(
  db: Kysely<DB>,
  brand: string,
  start: number,
  limit: number,
): Promise<{ rows: LeadChannelRow[]; total: number }> {
  const base = db.selectFrom('lead_channels').where('brand', '=', brand).where('deleted_at', 'is', null);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('created_at').orderBy('id').offset(start).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function countCapture(db: Kysely<DB>, id: string, at: Date): Promise<void> {
  await db
    .updateTable('lead_channels')
    .set((eb) => ({ capture_count: eb('capture_count', '+', 1), last_capture_at: at }))
    .where('id', '=', id)
    .execute();
}

/** The brand's oldest live channel (lead_channels_brand_idx): the default channel of its public pages' forms. */
export async function findOldestLiveChannel(db: Kysely<DB>, brand: string): Promise<LeadChannelRow | undefined> {
  return db
    .selectFrom('lead_channels')
    .selectAll()
    .where('brand', '=', brand)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}
