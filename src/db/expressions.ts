// SQL expressions shared by repositories.
import { sql, type RawBuilder } from 'kysely';

/**
 * A timestamptz column as epoch seconds cut to milliseconds, computed in SQL: inside json_agg a timestamptz
 * would arrive as a string, and every other timestamp of the API travels through a JS Date (ms precision).
 */
export function epochSecondsOf(column: string): RawBuilder<number> {
  return sql<number>`(trunc(extract(epoch from ${sql.ref(column)}) * 1000) / 1000)::float8`;
}

/** `epochSecondsOf` for a column that may be null (null stays null). */
export function nullableEpochSecondsOf(column: string): RawBuilder<number | null> {
  return sql<number | null>`${epochSecondsOf(column)}`;
}
