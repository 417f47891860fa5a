// SQL of the MLS registry (what a listing's `mls_info` shows). Functions take Kysely or a transaction.
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/types.js';

export type MlsRegistryRow = Selectable<DB['mls_registry']>;

export interface MlsRegistryChanges {
  name?: string;
  disclaimer?: string | null;
  logo_url?: string | null;
}

/** Creates the row (a name is then required) or changes only the fields given. */
export async function upsertMls(
  db: Kysely<DB>,
  mls: string,
  changes: MlsRegistryChanges & { name: string },
  now: Date,
): Promise<MlsRegistryRow>;
export async function upsertMls(
  db: Kysely<DB>,
  mls: string,
  changes: MlsRegistryChanges,
  now: Date,
): Promise<MlsRegistryRow | undefined>;
export async function upsertMls(
  db: Kysely<DB>,
  mls: string,
  changes: MlsRegistryChanges,
  now: Date,
): Promise<MlsRegistryRow | undefined> {
  if (changes.name === undefined) {
    return db
      .updateTable('mls_registry')
      .set({ ...changes, updated_at: now })
      .where('mls', '=', mls)
      .returningAll()
      .executeTakeFirst();
  }
  return db
    .insertInto('mls_registry')
    .values({
      mls,
      name: changes.name,
      disclaimer: changes.disclaimer ?? null,
      logo_url: changes.logo_url ?? null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('mls').doUpdateSet({ ...changes, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Inserts the row only when the MLS has none (seeds: never overwrite what an operator set). */
export async function insertMlsIfMissing(
  db: Kysely<DB>,
  row: { mls: string; name: string; disclaimer: string | null; logo_url: string | null },
  now: Date,
): Promise<void> {
  await db
    .insertInto('mls_registry')
    .values({ ...row, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('mls').doNothing())
    .execute();
}

export async function listMlsRegistry(db: Kysely<DB>): Promise<MlsRegistryRow[]> {
  return db.selectFrom('mls_registry').selectAll().orderBy('mls').execute();
}
