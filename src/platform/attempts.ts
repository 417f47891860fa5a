// Brute-force limits (decisions §3): per key (an account, an IP, a user's MFA codes) at most `maxFailures`
// failures per hour, and growing delays from the 5th consecutive failure. Kept in the database so every API
// process shares them. A blocked key answers 429 with Retry-After.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import { errors } from '../errors.js';

export interface AttemptPolicy {
  maxFailuresPerHour: number;
  /** Consecutive failures allowed before delays start. */
  freeConsecutive: number;
  /** Upper bound of one delay. */
  maxDelaySeconds: number;
}

export const ACCOUNT_POLICY: AttemptPolicy = { maxFailuresPerHour: 100, freeConsecutive: 4, maxDelaySeconds: 15 * 60 };
/** An IP may carry many users (NAT, offices): a looser budget, same growth. */
export const IP_POLICY: AttemptPolicy = { maxFailuresPerHour: 300, freeConsecutive: 20, maxDelaySeconds: 15 * 60 };

const WINDOW_SECONDS = 3600;

export interface AttemptKey {
  key: string;
  policy: AttemptPolicy;
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
      .where('key', 'in', keys.map((k) => k.key))
      .where('blocked_until', '>', now)
      .execute();
    const latest = Math.max(0, ...rows.map((r) => r.blocked_until!.getTime()));
    if (latest > now.getTime()) throw errors.tooManyRequests((latest - now.getTime()) / 1000);
  }

  /** Counts a failure against every key and sets its next allowed time. */
  async recordFailure(keys: AttemptKey[]): Promise<void> {
    const now = this.clock.now();
    for (const { key, policy } of keys) {
      const row = await sql<{ failures: number; consecutive: number; window_started_at: Date }>`
        insert into attempt_counters (key, window_started_at, failures, consecutive, updated_at)
        values (${key}, ${now}, 1, 1, ${now})
        on conflict (key) do update set
          failures = case when attempt_counters.window_started_at <= ${now}::timestamptz - interval '${sql.raw(String(WINDOW_SECONDS))} seconds'
                          then 1 else attempt_counters.failures + 1 end,
          window_started_at = case when attempt_counters.window_started_at <= ${now}::timestamptz - interval '${sql.raw(String(WINDOW_SECONDS))} seconds'
                          then ${now} else attempt_counters.window_started_at end,
          consecutive = attempt_counters.consecutive + 1,
          updated_at = ${now}
        returning failures, consecutive, window_started_at
      `.execute(this.db);
      const counter = row.rows[0]!;
      const blockedUntil = nextAllowed(now, counter, policy);
      if (blockedUntil) await this.db.updateTable('attempt_counters').set({ blocked_until: blockedUntil }).where('key', '=', key).execute();
    }
  }

  /** A success resets the consecutive count (the hourly budget keeps counting). */
  async recordSuccess(keys: AttemptKey[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db
      .updateTable('attempt_counters')
      .set({ consecutive: 0, blocked_until: null, updated_at: this.clock.now() })
      .where('key', 'in', keys.map((k) => k.key))
      .execute();
  }
}

function nextAllowed(now: Date, counter: { failures: number; consecutive: number; window_started_at: Date }, policy: AttemptPolicy): Date | null {
  if (counter.failures >= policy.maxFailuresPerHour) return new Date(counter.window_started_at.getTime() + WINDOW_SECONDS * 1000);
  const over = counter.consecutive - policy.freeConsecutive;
  if (over <= 0) return null;
  const delay = Math.min(policy.maxDelaySeconds, 2 ** (over - 1)); // 1 s, 2 s, 4 s, … from the 5th failure
  return new Date(now.getTime() + delay * 1000);
}
