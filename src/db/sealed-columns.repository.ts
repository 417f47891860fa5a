// The statements of `gable secrets rotate` and of `gable doctor`'s secrets row (docs/secret-rotation.md): read the
// columns that hold SecretBox-sealed values, a batch at a time in key order, and write back re-encrypted values.
// Which columns those are is each module's to say (sealed-columns.ts); the statements are the same for all, so
// they live here, once. Table and column names come from that code, never from input.
import { sql, type Kysely } from 'kysely';
import type { DB } from './types.js';
import { arrayLiteral } from './arrays.js';
import type { SealedColumns } from './sealed-columns.js';

/** One row of a batch: its key and the value of each sealed column (null where it holds none). */
export interface SealedRow {
  key: string;
  values: (string | null)[];
}

const anyStored = (table: SealedColumns) =>
  sql.join(
    table.columns.map((column) => sql`${sql.ref(column)} is not null`),
    sql` or `,
  );

/** The next `limit` rows holding a sealed value, in key order, after `after` (from the first when null). */
export async function readSealedBatch(
  db: Kysely<DB>,
  table: SealedColumns,
  after: string | null,
  limit: number,
): Promise<SealedRow[]> {
  const key = sql.ref(table.key);
  const { rows } = await sql<Record<string, string | null>>`
    select ${key}::text as key, ${sql.join(table.columns.map((column) => sql.ref(column)))}
    from ${sql.table(table.table)}
    where (${anyStored(table)}) ${after === null ? sql`` : sql`and ${key} > ${after}`}
    order by ${key}
    limit ${limit}
  `.execute(db);
  return rows.map((row) => ({ key: row.key!, values: table.columns.map((column) => row[column] ?? null) }));
}

/** A sealed value to replace: only while the row still holds `from` (a write since it was read wins). */
export interface Reseal {
  key: string;
  from: string;
  to: string;
}

/** Writes the new values of one column, one statement whatever their number; answers how many rows took them. */
export async function writeResealed(
  db: Kysely<DB>,
  table: SealedColumns,
  column: string,
  changes: readonly Reseal[],
): Promise<number> {
  if (changes.length === 0) return 0;
  const target = sql.ref(column);
  const result = await sql`
    update ${sql.table(table.table)} as t set ${target} = r.to_value
    from unnest(
      ${arrayLiteral(changes.map((change) => change.key))}::uuid[],
      ${arrayLiteral(changes.map((change) => change.from))}::text[],
      ${arrayLiteral(changes.map((change) => change.to))}::text[]
    ) as r(key, from_value, to_value)
    where ${sql.ref(`t.${table.key}`)} = r.key and ${sql.ref(`t.${column}`)} = r.from_value
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
