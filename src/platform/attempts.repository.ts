// Every statement of attempt_counters (platform/attempts.ts holds the policy: when a key is blocked and for how
// long). One row per key; the rows are shared by every API process.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.js';

export interface AttemptCounter {
  key: string;
  failures: number;
  consecutive: number;
  window_started_at: Date;
}

/** The keys among `keys` blocked after `now`, with the time each block ends. */
export async function findBlockedKeys(
  db: Kysely<DB>,
  keys: string[],
  now: Date,
): Promise<{ key: string; blocked_until: Date }[]> {
  const rows = await db
    .selectFrom('attempt_counters')
    .select(['key', 'blocked_until'])
    .where('key', 'in', keys)
    .where('blocked_until', '>', now)
    .execute();
  return rows.map((row) => ({ key: row.key, blocked_until: row.blocked_until! }));
}

/**
 * One failure against each key, in one statement, in one lock order for everyone (by key, so two claims on
 * overlapping keys cannot deadlock): the window of `windowSeconds` restarts when it is over. A key blocked now is
 * left alone and missing from the answer.
 */
export async function countFailures(
  db: Kysely<DB>,
  keys: string[],
  now: Date,
  windowSeconds: number,
): Promise<AttemptCounter[]> {
  const windowOver = sql`c.window_started_at <= ${now}::timestamptz - interval '${sql.raw(String(windowSeconds))} seconds'`;
  const result = await sql<AttemptCounter>`
    insert into attempt_counters as c (key, window_started_at, failures, consecutive, updated_at)
    select distinct key, ${now}::timestamptz, 1, 1, ${now}::timestamptz from unnest(${keys}::text[]) as k(key) order by key
    on conflict (key) do update set
      failures = case when ${windowOver} then 1 else c.failures + 1 end,
      window_started_at = case when ${windowOver} then ${now} else c.window_started_at end,
      consecutive = case when ${windowOver} then 1 else c.consecutive + 1 end,
      updated_at = ${now}
    where c.blocked_until is null or c.blocked_until <= ${now}
    returning key, failures, consecutive, window_started_at
  `.execute(db);
  return result.rows;
}

/**
 * Takes back one failure of each key; the keys with `reset` also restart their consecutive count and lose their
 * block. One statement; answers the corrected counters.
 */
export async function refundFailures(
  db: Kysely<DB>,
  keys: { key: string; reset: boolean }[],
  now: Date,
): Promise<(AttemptCounter & { blocked_until: Date | null })[]> {
  const { rows } = await sql<AttemptCounter & { blocked_until: Date | null }>`
    update attempt_counters c
       set failures = greatest(c.failures - 1, 0),
           consecutive = case when k.reset then 0 else greatest(c.consecutive - 1, 0) end,
           blocked_until = case when k.reset then null else c.blocked_until end,
           updated_at = ${now}
      from unnest(${keys.map((k) => k.key)}::text[], ${keys.map((k) => k.reset)}::boolean[]) as k(key, reset)
     where c.key = k.key
    returning c.key, c.failures, c.consecutive, c.window_started_at, c.blocked_until
  `.execute(db);
  return rows;
}

/** Sets (or clears, with null) the block of each key, in one statement. */
export async function setBlockedUntil(
  db: Kysely<DB>,
  delays: { key: string; blockedUntil: Date | null }[],
): Promise<void> {
  await sql`
    update attempt_counters c set blocked_until = d.blocked_until
      from unnest(${delays.map((d) => d.key)}::text[], ${delays.map((d) => d.blockedUntil)}::timestamptz[])
        as d(key, blocked_until)
     where c.key = d.key
  `.execute(db);
}

/** Restarts the consecutive count of these keys and ends their block; the hourly budget keeps counting. */
export async function resetConsecutive(db: Kysely<DB>, keys: string[], now: Date): Promise<void> {
  await db
    .updateTable('attempt_counters')
    .set({ consecutive: 0, blocked_until: null, updated_at: now })
    .where('key', 'in', keys)
    .execute();
}
