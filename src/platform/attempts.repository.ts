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

/** A key and its policy as the statements take it (platform/attempts.ts says what each field means). */
export interface PolicyKey {
  key: string;
  maxFailuresPerHour: number;
  freeConsecutive: number;
  maxDelaySeconds: number;
  /** Whether a success restarts the key's consecutive count (`AttemptPolicy.resetOnSuccess`). */
  reset: boolean;
}

/** Keys and their policies as the statements unnest them: one array per column, one entry per distinct key. */
export interface KeyColumns {
  keys: string[];
  maxFailures: number[];
  freeConsecutive: number[];
  maxDelaySeconds: number[];
  reset: boolean[];
}

export function keyColumns(keys: PolicyKey[]): KeyColumns {
  const unique = [...new Map(keys.map((k) => [k.key, k])).values()];
  return {
    keys: unique.map((k) => k.key),
    maxFailures: unique.map((k) => k.maxFailuresPerHour),
    freeConsecutive: unique.map((k) => k.freeConsecutive),
    maxDelaySeconds: unique.map((k) => k.maxDelaySeconds),
    reset: unique.map((k) => k.reset),
  };
}

/** A claim's values: its keys' columns and the time it counts at. */
export interface ClaimValues extends KeyColumns {
  now: Date;
}

/** One row per key, with its policy: `p`'s columns in the claim, `k`'s in the refund. */
function policyRows(columns: KeyColumns) {
  return sql`select * from unnest(
      ${columns.keys}::text[], ${columns.maxFailures}::int[], ${columns.freeConsecutive}::int[],
      ${columns.maxDelaySeconds}::int[], ${columns.reset}::boolean[]
    ) as p(key, max_failures, free_consecutive, max_delay_seconds, reset)`;
}

/**
 * Stand-ins of a claim's values, for a statement prepared once with a claim inside (`preparedRows`, which swaps
 * each field for the real one by identity).
 */
export const CLAIM_STAND_INS: ClaimValues = {
  keys: [],
  maxFailures: [],
  freeConsecutive: [],
  maxDelaySeconds: [],
  reset: [],
  now: new Date(0),
};

/**
 * One failure against each key and the delay the new counts earn, all in ONE statement (a login's hot path: one
 * round trip, and the counter rows stay locked only for the statement and its commit). The existing counters are
 * locked first, in one order for everyone (by key, so two claims on overlapping keys cannot deadlock), and seen
 * at their latest versions; if any of them is blocked now, nothing is counted and the answer is empty (all or
 * nothing). The window of `windowSeconds` restarts when it is over, and with it the consecutive count.
 *
 * The block a count earns is `earnedBlock`'s, the rule the refund applies too, so a claim writes the block its
 * count earned before any other claim can read the row.
 *
 * Always run as a named prepared statement, on its own (`claimFailures`) or inside another: PostgreSQL plans it
 * in ~0.2–1 ms (CTEs, laterals, the conflict's sub-select), more than it takes to run; prepared, each connection
 * plans it a few times and then reuses a generic plan.
 */
export function claimStatement(values: ClaimValues, windowSeconds: number): RawBuilder<AttemptCounter> {
  const { now } = values;
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
      select ${earnedBlock(counterColumns(sql`n`), sql`p`, now, windowSeconds, previous.blocked)} as blocked_until
    ) b`;
  return sql<AttemptCounter>`
    with p as (${policyRows(values)}),
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
}

/** `claimStatement` on its own: the counters it counted (none when a key was blocked). */
export async function claimFailures(
  database: PooledDatabase,
  values: ClaimValues,
  windowSeconds: number,
): Promise<AttemptCounter[]> {
  // The window is part of the text, so of the name.
  return runNamed(database, `attempts.claim-${windowSeconds}`, claimStatement(values, windowSeconds));
}

/**
 * Takes back one failure of each key; the keys with `reset` also restart their consecutive count and lose their
 * block, the others keep the block their corrected count earns (`earnedBlock`: none, once the claim's failure is
 * gone, unless earlier failures earned one). ONE statement, with no answer: every successful sign-in runs it, on
 * its own (`refundFailures`) or inside the statement that records the sign-in (the password grant's new family).
 */
export function refundStatement(columns: KeyColumns, now: Date, windowSeconds: number): RawBuilder<unknown> {
  const failures = sql`greatest(c.failures - 1, 0)`;
  const consecutive = sql`greatest(c.consecutive - 1, 0)`;
  const corrected = { failures, consecutive, windowStartedAt: sql`c.window_started_at` };
  return sql`
    update attempt_counters c
       set failures = ${failures},
           consecutive = case when k.reset then 0 else ${consecutive} end,
           blocked_until = case when k.reset then null
                                else ${earnedBlock(corrected, sql`k`, now, windowSeconds, sql`null::timestamptz`)} end,
           updated_at = ${now}::timestamptz
      from ${inKeyOrder(policyRows(columns))} as k
     where c.key = k.key
  `;
}

/** `refundStatement` on its own, prepared as the claim is. */
export async function refundFailures(
  database: PooledDatabase,
  columns: KeyColumns,
  now: Date,
  windowSeconds: number,
): Promise<void> {
  await runNamed(database, `attempts.refund-${windowSeconds}`, refundStatement(columns, now, windowSeconds));
}

interface CounterValues {
  failures: RawBuilder<unknown>;
  consecutive: RawBuilder<unknown>;
  windowStartedAt: RawBuilder<unknown>;
}

/** The columns of a counter-shaped row `n` as `earnedBlock` reads them. */
function counterColumns(n: RawBuilder<unknown>): CounterValues {
  return {
    failures: sql`${n}.failures`,
    consecutive: sql`${n}.consecutive`,
    windowStartedAt: sql`${n}.window_started_at`,
  };
}

/**
 * The block a counter earns (its failures, consecutive count and window start after a change) under the policy
 * row `p` (max_failures, free_consecutive, max_delay_seconds): the end of its window once the hourly budget is
 * spent, else a delay doubling from 1 s at the first consecutive failure past the free ones (at most
 * max_delay_seconds), else `otherwise`. The claim and the refund both apply it, so a key's block follows one rule.
 */
function earnedBlock(
  counter: CounterValues,
  p: RawBuilder<unknown>,
  now: Date,
  windowSeconds: number,
  otherwise: unknown,
) {
  const window = sql`interval '${sql.raw(String(windowSeconds))} seconds'`;
  return sql`case
    when ${counter.failures} >= ${p}.max_failures then ${counter.windowStartedAt} + ${window}
    when ${counter.consecutive} > ${p}.free_consecutive then ${now}::timestamptz
      + make_interval(secs => least(${p}.max_delay_seconds, power(2, ${counter.consecutive} - ${p}.free_consecutive - 1)))
    else ${otherwise}
  end`;
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
