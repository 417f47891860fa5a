// All SQL of showings.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/types.js';

export type ShowingRow = Selectable<DB['showings']>;
export type ShowingFields = Pick<
  ShowingRow,
  'contact' | 'agent' | 'start_time' | 'end_time' | 'status' | 'notes' | 'feedback'
>;

export async function insertShowing(
  db: Kysely<DB>,
  values: ShowingFields & { brand: string; listing: string; created_by: string | null; at: Date },
): Promise<ShowingRow> {
  const { at, ...rest } = values;
  return db
    .insertInto('showings')
    .values({ ...rest, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findShowing(
  db: Kysely<DB>,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ShowingRow | undefined> {
  let query = db.selectFrom('showings').selectAll().where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateShowing(db: Kysely<DB>, id: string, fields: ShowingFields, at: Date): Promise<ShowingRow> {
  return db
    .updateTable('showings')
    .set({ ...fields, updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface ShowingFilter {
  brand: string;
  from: Date | null;
  to: Date | null;
  statuses: string[] | null;
}

function filtered(db: Kysely<DB>, filter: ShowingFilter) {
  let query = db.selectFrom('showings').where('brand', '=', filter.brand);
  if (filter.from) query = query.where('start_time', '>=', filter.from);
  if (filter.to) query = query.where('start_time', '<', filter.to);
  if (filter.statuses) query = query.where(sql<boolean>`status = any(${filter.statuses}::text[])`);
  return query;
}

export async function listShowings(
  db: Kysely<DB>,
  filter: ShowingFilter,
  start: number,
  limit: number,
): Promise<ShowingRow[]> {
  return filtered(db, filter).selectAll().orderBy('start_time').orderBy('id').offset(start).limit(limit).execute();
}

export async function countShowings(db: Kysely<DB>, filter: ShowingFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
