// Every statement of rate_limit_windows (platform/rate-limit.ts holds the rule): one row per key, shared by every
// API process.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.js';

/**
 * Counts one hit against `key` in one upsert and answers the window's count and start. A window of
 * `windowSeconds` that is over starts again at this hit.
 */
export async function countRateLimitHit(
  db: Kysely<DB>,
  key: string,
  now: Date,
  windowSeconds: number,
): Promise<{ hits: number; window_started_at: Date }> {
  const { rows } = await sql<{ hits: number; window_started_at: Date }>`
    insert into rate_limit_windows as w (key, window_started_at, hits) values (${key}, ${now}, 1)
    on conflict (key) do update set
      hits = case when w.window_started_at <= ${now}::timestamptz - make_interval(secs => ${windowSeconds}) then 1 else w.hits + 1 end,
      window_started_at = case when w.window_started_at <= ${now}::timestamptz - make_interval(secs => ${windowSeconds}) then ${now} else w.window_started_at end
    returning hits, window_started_at
  `.execute(db);
  return rows[0]!;
}

/** Deletes the windows that started before `cutoff`; answers how many. */
export async function deleteRateLimitWindowsBefore(db: Kysely<DB>, cutoff: Date): Promise<number> {
  const result = await db.deleteFrom('rate_limit_windows').where('window_started_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
