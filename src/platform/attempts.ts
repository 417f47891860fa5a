// Brute-force limits (decisions §3): per key (an account, an IP, a user's MFA codes) at most `maxFailures`
// failures per hour, and growing delays from the 5th consecutive failure. The consecutive count also restarts with
// each hourly window, so an IP shared by many honest users does not creep towards ever longer delays. Kept in the
// database so every API process shares them. A blocked key answers 429 with Retry-After.
import type { Kysely } from 'kysely';
import type { NamedStatement, PooledDatabase } from '../db/prepared.js';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import { errors } from '../errors.js';
import { sha256Base64Url } from '../lib/crypto.js';
import {
  claimFailures,
  claimStatement,
  type ClaimValues,
  findBlockedKeys,
  keyColumns,
  type KeyColumns,
  refundFailures,
  refundStatement,
  resetConsecutive,
} from './attempts.repository.js';

export { CLAIM_STAND_INS, type ClaimValues } from './attempts.repository.js';

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

export type AttemptKind = 'account' | 'ip' | 'mfa' | 'lead-ip' | 'lead-channel' | 'lead-form-ip';

/**
 * The counter key of an identity (an email, an IP, a user id): `kind:` + SHA-256 of the identity. Hashed so that
 * a key has a fixed size whatever a client sends as a username (a btree entry over ~2.7 kB is an error), and so
 * that the table does not keep a list of the emails people typed.
 */
export function attemptKey(kind: AttemptKind, identity: string, policy: AttemptPolicy): AttemptKey {
  return { key: `${kind}:${sha256Base64Url(identity)}`, policy };
}

/**
 * The claim's statement from its values, to run inside another statement prepared once from `CLAIM_STAND_INS`
 * (the password grant reads the user in the same round trip). It answers one row per counted key.
 */
export function claimInside(values: ClaimValues) {
  return claimStatement(values, WINDOW_SECONDS);
}

export class AttemptLimiter {
  private readonly db: Kysely<DB>;

  constructor(
    /** Its Kysely for the reads and writes; its pool for the claim, a named prepared statement (planning it costs
     * more than running it). */
    private readonly database: PooledDatabase,
    private readonly clock: Clock,
  ) {
    this.db = database.db;
  }

  /** Throws 429 when any key is blocked now. */
  async assertAllowed(keys: AttemptKey[]): Promise<void> {
    if (keys.length === 0) return;
    const now = this.clock.now();
    const rows = await findBlockedKeys(
      this.db,
      keys.map((k) => k.key),
      now,
    );
    const latest = Math.max(0, ...rows.map((r) => r.blocked_until.getTime()));
    if (latest > now.getTime()) throw errors.tooManyRequests((latest - now.getTime()) / 1000);
  }

  /**
   * Counts an attempt as a failure BEFORE the check it guards (a password, a TOTP code), so that concurrent
   * attempts cannot all pass `assertAllowed` before the first failure is written: the counter rows are locked
   * and updated one claim at a time, and a claim that finds a key blocked counts nothing and answers 429.
   * A failed check then needs nothing more; a passed one calls `refund`. Every key and the delay the count earned
   * in one statement (`claimFailures`: a login's hot path, one round trip).
   */
  async claim(keys: AttemptKey[]): Promise<void> {
    const counted = await claimFailures(this.database, this.claimValues(keys), WINDOW_SECONDS);
    await this.settleClaim(keys, counted.length);
  }

  /** The values of `claim` for a statement that runs it inside (`claimInside`); `settleClaim` then reads its count. */
  claimValues(keys: AttemptKey[]): ClaimValues {
    return { ...columnsOf(keys), now: this.clock.now() };
  }

  /** Throws 429 unless the claim counted every key (all or nothing: a blocked key leaves the others uncounted). */
  async settleClaim(keys: AttemptKey[], countedKeys: number): Promise<void> {
    if (countedKeys < new Set(keys.map((k) => k.key)).size) {
      await this.assertAllowed(keys); // throws 429 with the Retry-After of the longest block
      throw errors.tooManyRequests(1);
    }
  }

  /**
   * Gives back a claimed attempt that succeeded: it was not a failure. The keys whose policy allows it also
   * restart their consecutive count (as `recordSuccess`); the others keep only the block their corrected count
   * still earns. One statement.
   */
  async refund(keys: AttemptKey[]): Promise<void> {
    await refundFailures(this.database, columnsOf(keys), this.clock.now(), WINDOW_SECONDS);
  }

  /**
   * `refund` as a statement to run inside the one that records the success (the password grant's new token
   * family): one round trip and one commit for both, and no refund without the login it stands for.
   */
  refundStatement(keys: AttemptKey[]): NamedStatement {
    return {
      name: `attempts.refund-${WINDOW_SECONDS}`,
      statement: refundStatement(columnsOf(keys), this.clock.now(), WINDOW_SECONDS),
    };
  }

  /**
   * A success resets the consecutive count of the keys whose policy allows it (accounts, not IPs); the hourly
   * budget keeps counting. (A success cannot happen while a key is blocked: callers claim or assert first.)
   */
  async recordSuccess(keys: AttemptKey[]): Promise<void> {
    const resettable = keys.filter((k) => k.policy.resetOnSuccess).map((k) => k.key);
    if (resettable.length === 0) return;
    await resetConsecutive(this.db, resettable, this.clock.now());
  }
}

function columnsOf(keys: AttemptKey[]): KeyColumns {
  return keyColumns(keys.map((k) => ({ key: k.key, reset: k.policy.resetOnSuccess, ...k.policy })));
}
