// Brute-force limits (decisions §3): per key (an account, an IP, a user's MFA codes) at most `maxFailures`
// failures per hour, and growing delays from the 5th consecutive failure. The consecutive count also restarts with
// each hourly window, so an IP shared by many honest users does not creep towards ever longer delays. Kept in the
// database so every API process shares them. A blocked key answers 429 with Retry-After.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import { errors } from '../errors.js';
import { sha256Base64Url } from '../lib/crypto.js';

export interface AttemptPolicy {
  maxFailuresPerHour: number;
  /** Consecutive failures allowed before delays start. */
  freeConsecutive: number;
  /** Upper bound of one delay. */
  maxDelaySeconds: number;
  /**
   * Whether a success clears the consecutive count. True for an account (its owner proved the password).
   * False for an IP: one valid account of the attacker's own must not reset the budget of a spraying run.
   */
  resetOnSuccess: boolean;
}

export const ACCOUNT_POLICY: AttemptPolicy = {
  maxFailuresPerHour: 100,
  freeConsecutive: 4,
  maxDelaySeconds: 15 * 60,
  resetOnSuccess: true,
};
/** An IP may carry many users (NAT, offices): a looser budget, same growth. */
export const IP_POLICY: AttemptPolicy = {
  maxFailuresPerHour: 300,
  freeConsecutive: 20,
  maxDelaySeconds: 15 * 60,
  resetOnSuccess: false,
};

const WINDOW_SECONDS = 3600;

export interface AttemptKey {
  key: string;
  policy: AttemptPolicy;
}

export type AttemptKind = 'account' | 'ip' | 'mfa' | 'lead-ip' | 'lead-channel';

/**
 * The counter key of an identity (an email, an IP, a user id): `kind:` + SHA-256 of the identity. Hashed so that
 * a key has a fixed size whatever a client sends as a username (a btree entry over ~2.7 kB is an error), and so
 * that the table does not keep a list of the emails people typed.
 */
export function attemptKey(kind: AttemptKind, identity: string, policy: AttemptPolicy): AttemptKey {
  return { key: `${kind}:${sha256Base64Url(identity)}`, policy };
}

export class AttemptLimiter {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** Throws 429 when any key is blocked now. */
  async assertAllowed(keys: AttemptKey[]): Promise<void> {
    if (keys.length === 0) return;
    const now = this.clock.now();
    const rows = await this.db
      .selectFrom('attempt_counters')
      .select(['key', 'blocked_until'])
      .where(
        'key',
        'in',
        keys.map((k) => k.key),
      )
      .where('blocked_until', '>', now)
      .execute();
    const latest = Math.max(0, ...rows.map((r) => r.blocked_until!.getTime()));
    if (latest > now.getTime()) throw errors.tooManyRequests((latest - now.getTime()) / 1000);
  }

  /**
   * Counts an attempt as a failure BEFORE the check it guards (a password, a TOTP code), so that concurrent
   * attempts cannot all pass `assertAllowed` before the first failure is written: the counter rows are locked
   * and updated one claim at a time, and a claim that finds a key blocked counts nothing and answers 429.
   * A failed check then needs nothing more; a passed one calls `refund`.
   */
  async claim(keys: AttemptKey[]): Promise<void> {
    const now = this.clock.now();
    // One lock order for everyone (by key), so two claims on overlapping keys cannot deadlock.
    const ordered = [...keys].sort((a, b) => (a.key < b.key ? -1 : 1));
    try {
      // All or nothing: a blocked key rolls back the keys counted before it.
      await this.db.transaction().execute(async (trx) => {
        for (const key of ordered) if (!(await countFailure(trx, key, now))) throw new KeyBlocked();
      });
    } catch (error) {
      if (!(error instanceof KeyBlocked)) throw error;
      await this.assertAllowed(keys); // throws 429 with the Retry-After of the longest block
      throw errors.tooManyRequests(1);
    }
  }

  /** Gives back a claimed attempt that succeeded: it was not a failure. Then `recordSuccess`. */
  async refund(keys: AttemptKey[]): Promise<void> {
    const now = this.clock.now();
    for (const { key, policy } of keys) {
      const row = await this.db
        .updateTable('attempt_counters')
        .set((eb) => ({
          failures: sql`greatest(${eb.ref('failures')} - 1, 0)`,
          consecutive: sql`greatest(${eb.ref('consecutive')} - 1, 0)`,
          updated_at: now,
        }))
        .where('key', '=', key)
        .returning(['failures', 'consecutive', 'window_started_at'])
        .executeTakeFirst();
      // The claim may have set a delay that only a failure deserves: recompute from the corrected counts.
      if (row)
        await this.db
          .updateTable('attempt_counters')
          .set({ blocked_until: nextAllowed(now, row, policy) })
          .where('key', '=', key)
          .execute();
    }
    await this.recordSuccess(keys);
  }

  /**
   * A success resets the consecutive count of the keys whose policy allows it (accounts, not IPs); the hourly
   * budget keeps counting. (A success cannot happen while a key is blocked: callers claim or assert first.)
   */
  async recordSuccess(keys: AttemptKey[]): Promise<void> {
    const resettable = keys.filter((k) => k.policy.resetOnSuccess).map((k) => k.key);
    if (resettable.length === 0) return;
    await this.db
      .updateTable('attempt_counters')
      .set({ consecutive: 0, blocked_until: null, updated_at: this.clock.now() })
      .where('key', 'in', resettable)
      .execute();
  }
}

class KeyBlocked extends Error {}

/**
 * One failure against one key: the hourly window restarts when it is over, the next allowed time follows the
 * policy. A key blocked now is left alone and the result is false.
 */
async function countFailure(db: Kysely<DB>, { key, policy }: AttemptKey, now: Date): Promise<boolean> {
  const windowOver = sql`attempt_counters.window_started_at <= ${now}::timestamptz - interval '${sql.raw(String(WINDOW_SECONDS))} seconds'`;
  const result = await sql<{ failures: number; consecutive: number; window_started_at: Date }>`
    insert into attempt_counters (key, window_started_at, failures, consecutive, updated_at)
    values (${key}, ${now}, 1, 1, ${now})
    on conflict (key) do update set
      failures = case when ${windowOver} then 1 else attempt_counters.failures + 1 end,
      window_started_at = case when ${windowOver} then ${now} else attempt_counters.window_started_at end,
      consecutive = case when ${windowOver} then 1 else attempt_counters.consecutive + 1 end,
      updated_at = ${now}
    where attempt_counters.blocked_until is null or attempt_counters.blocked_until <= ${now}
    returning failures, consecutive, window_started_at
  `.execute(db);
  const counter = result.rows[0];
  if (!counter) return false;
  const blockedUntil = nextAllowed(now, counter, policy);
  if (blockedUntil)
    await db.updateTable('attempt_counters').set({ blocked_until: blockedUntil }).where('key', '=', key).execute();
  return true;
}

function nextAllowed(
  now: Date,
  counter: { failures: number; consecutive: number; window_started_at: Date },
  policy: AttemptPolicy,
): Date | null {
  if (counter.failures >= policy.maxFailuresPerHour)
    return new Date(counter.window_started_at.getTime() + WINDOW_SECONDS * 1000);
  const over = counter.consecutive - policy.freeConsecutive;
  if (over <= 0) return null;
  const delay = Math.min(policy.maxDelaySeconds, 2 ** (over - 1)); // 1 s, 2 s, 4 s, … from the 5th failure
  return new Date(now.getTime() + delay * 1000);
}
