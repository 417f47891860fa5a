// SQL expressions shared by repositories.
import { sql, type RawBuilder } from 'kysely';

/**
 * A timestamptz column as epoch seconds cut to milliseconds, computed in SQL: inside json_agg a timestamptz
 * would arrive as a string, and every other timestamp of the API travels through a JS Date (ms precision).
 * `date_part` answers a float8 from the timestamp's integer microseconds (µs / 1e6, rounded once), the same
 * double as a Date's ms / 1000 once `date_trunc` has cut the microseconds; `extract` answers a numeric, and its
 * arithmetic cost the user record's statement ~9 % of its database time (pgbench, 7 timestamps a row).
 */
export function epochSecondsOf(column: string): RawBuilder<number> {
  return sql<number>`date_part('epoch', date_trunc('milliseconds', ${sql.ref(column)}))`;
}

/** `epochSecondsOf` for a column that may be null (null stays null). */
export function nullableEpochSecondsOf(column: string): RawBuilder<number | null> {
  return sql<number | null>`${epochSecondsOf(column)}`;
}
