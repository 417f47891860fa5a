// Every statement of attempt_counters (platform/attempts.ts holds the policy: when a key is blocked and for how
// long). One row per key; the rows are shared by every API process.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { runNamed, type PooledDatabase } from '../db/prepared.js';
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

/** What `claimFailures` needs of a key's policy (platform/attempts.ts says what each field means). */
export interface ClaimedKey {
  key: string;
  maxFailuresPerHour: number;
  freeConsecutive: number;
  maxDelaySeconds: number;
}

/**
 * One failure against each key and the delay the new counts earn, all in ONE statement (a login's hot path: one
 * round trip, and the counter rows stay locked only for the statement and its commit). The existing counters are
 * locked first, in one order for everyone (by key, so two claims on overlapping keys cannot deadlock), and seen
 * at their latest versions; if any of them is blocked now, nothing is counted and the answer is empty (all or
 * nothing). The window of `windowSeconds` restarts when it is over, and with it the consecutive count.
 *
 * The delay rule is `nextAllowed` of platform/attempts.ts written in SQL: the same rule, so a claim writes the
 * block its count earned before any other claim can read the row.
 *
 * A named prepared statement, run through `database`: PostgreSQL plans this statement in ~0.2–1 ms (CTEs,
 * laterals, the conflict's sub-select), more than it takes to run; prepared, each connection plans it a few times
 * and then reuses a generic plan.
 */
export async function claimFailures(
  database: PooledDatabase,
  keys: ClaimedKey[],
  now: Date,
  windowSeconds: number,
): Promise<AttemptCounter[]> {
  const window = sql`interval '${sql.raw(String(windowSeconds))} seconds'`;
  /** The counter after one more failure, from the one before it (`previous`), as a lateral sub-select on `p`. */
  const afterFailure = (previous: {
    failures: unknown;
    consecutive: unknown;
    started: unknown;
    blocked: unknown;
  }) => sql`
    cross join lateral (
      select case when over then 1 else ${previous.failures} + 1 end as failures,
             case when over then 1 else ${previous.consecutive} + 1 end as consecutive,
             case when over then ${now}::timestamptz else ${previous.started} end as window_started_at
        from (select ${previous.started} <= ${now}::timestamptz - ${window} as over) w
    ) n
    cross join lateral (
      select case
               when n.failures >= p.max_failures then n.window_started_at + ${window}
               when n.consecutive > p.free_consecutive then ${now}::timestamptz
                 + make_interval(secs => least(p.max_delay_seconds, power(2, n.consecutive - p.free_consecutive - 1)))
               else ${previous.blocked}
             end as blocked_until
    ) b`;
  const unique = [...new Map(keys.map((k) => [k.key, k])).values()];
  const statement = sql<AttemptCounter>`
    with p as (
      select * from unnest(
        ${unique.map((k) => k.key)}::text[], ${unique.map((k) => k.maxFailuresPerHour)}::int[],
        ${unique.map((k) => k.freeConsecutive)}::int[], ${unique.map((k) => k.maxDelaySeconds)}::int[]
      ) as p(key, max_failures, free_consecutive, max_delay_seconds)
    ),
    locked as (
      select c.key, c.blocked_until from attempt_counters c where c.key in (select key from p) order by c.key for update
    )
    insert into attempt_counters as c (key, window_started_at, failures, consecutive, blocked_until, updated_at)
    select p.key, n.window_started_at, n.failures, n.consecutive, b.blocked_until, ${now}::timestamptz
      from p ${afterFailure({ failures: sql`0`, consecutive: sql`0`, started: sql`${now}::timestamptz`, blocked: sql`null::timestamptz` })}
     where not exists (select from locked where locked.blocked_until > ${now}::timestamptz)
     order by p.key
    on conflict (key) do update set
      (failures, consecutive, window_started_at, blocked_until, updated_at) = (
        select n.failures, n.consecutive, n.window_started_at, b.blocked_until, ${now}::timestamptz
          from p ${afterFailure({ failures: sql`c.failures`, consecutive: sql`c.consecutive`, started: sql`c.window_started_at`, blocked: sql`c.blocked_until` })}
         where p.key = c.key
      )
    -- Only a counter another claim created after the lock above can be blocked here (it would take a policy that
    -- blocks at the first failure; none does): it is left alone and missing from the answer.
    where c.blocked_until is null or c.blocked_until <= ${now}::timestamptz
    returning c.key, c.failures, c.consecutive, c.window_started_at
  `;
  return runNamed(database, `attempts.claim-${windowSeconds}`, statement); // the window is part of the text
}

/**
 * Takes back one failure of each key; the keys with `reset` also restart their consecutive count and lose their
 * block. One statement, prepared as the claim is (every successful sign-in runs both); answers the corrected
 * counters.
 */
export async function refundFailures(
  database: PooledDatabase,
  keys: { key: string; reset: boolean }[],
  now: Date,
): Promise<(AttemptCounter & { blocked_until: Date | null })[]> {
  const statement = sql<AttemptCounter & { blocked_until: Date | null }>`
    update attempt_counters c
       set failures = greatest(c.failures - 1, 0),
           consecutive = case when k.reset then 0 else greatest(c.consecutive - 1, 0) end,
           blocked_until = case when k.reset then null else c.blocked_until end,
           updated_at = ${now}
      from ${inKeyOrder(sql`select key, reset from unnest(${keys.map((k) => k.key)}::text[], ${keys.map((k) => k.reset)}::boolean[]) as u(key, reset)`)} as k
     where c.key = k.key
    returning c.key, c.failures, c.consecutive, c.window_started_at, c.blocked_until
  `;
  return runNamed(database, 'attempts.refund', statement);
}

/** Sets (or clears, with null) the block of each key, in one statement. */
export async function setBlockedUntil(
  db: Kysely<DB>,
  delays: { key: string; blockedUntil: Date | null }[],
): Promise<void> {
  await sql`
    update attempt_counters c set blocked_until = d.blocked_until
      from ${inKeyOrder(sql`select key, blocked_until from unnest(${delays.map((d) => d.key)}::text[], ${delays.map((d) => d.blockedUntil)}::timestamptz[]) as u(key, blocked_until)`)} as d
     where c.key = d.key
  `.execute(db);
}

/** Restarts the consecutive count of these keys and ends their block; the hourly budget keeps counting. */
export async function resetConsecutive(db: Kysely<DB>, keys: string[], now: Date): Promise<void> {
  await sql`
    update attempt_counters c set consecutive = 0, blocked_until = null, updated_at = ${now}
      from ${inKeyOrder(sql`select key from unnest(${keys}::text[]) as u(key)`)} as k
     where c.key = k.key
  `.execute(db);
}

/**
 * The counters of `keys` (a select of a `key` column and whatever values go with each), locked in key order
 * before a statement updates them. Every statement that writes several counters takes their locks in this one
 * order, as the claim does: an UPDATE joined to an unordered list locks rows in whatever order its plan meets them
 * (a generic plan can scan the table), and a refund that locked the address before the account while a claim held
 * the account waiting for the address was a deadlock (seen under parallel logins of one account and address).
 */
function inKeyOrder(keys: RawBuilder<unknown>) {
  return sql`(
    select k.*
      from (${keys}) as k
      join attempt_counters locked on locked.key = k.key
     order by locked.key
       for update of locked
  )`;
}
