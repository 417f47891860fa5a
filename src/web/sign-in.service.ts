// Password sign-in of the authorization pages, under the same brute-force limits as the password grant
// (decisions §3): per account and per IP, shared through the attempt_counters table.
import type { Deps } from '../platform/deps.js';
import { AppError } from '../errors.js';
import { verifyPassword } from '../lib/passwords.js';
import { findLiveUserByEmail } from '../modules/auth/index.js';
import { attemptKey, ACCOUNT_POLICY, AttemptLimiter, IP_POLICY, type AttemptKey } from '../platform/attempts.js';

export interface SignedInUser {
  id: string;
  email: string;
  mfaEnabled: boolean;
}

export type SignInOutcome =
  { kind: 'ok'; user: SignedInUser } | { kind: 'invalid' } | { kind: 'blocked'; retryAfterSeconds: number };

export async function signInWithPassword(
  deps: Deps,
  email: string,
  password: string,
  ip: string,
): Promise<SignInOutcome> {
  const normalisedEmail = email.trim().toLowerCase();
  // The same keys as the password grant: failures on either path count against one budget.
  const keys: AttemptKey[] = [attemptKey('account', normalisedEmail, ACCOUNT_POLICY), attemptKey('ip', ip, IP_POLICY)];
  const limiter = new AttemptLimiter(deps.database, deps.clock);
  // Counted as a failure up front (as the password grant does), so parallel guesses cannot all slip past the
  // limit during the slow hash; a correct password gets the attempt back.
  const blocked = await retryAfter(() => limiter.claim(keys));
  if (blocked !== null) return { kind: 'blocked', retryAfterSeconds: blocked };

  const user = normalisedEmail ? await findLiveUserByEmail(deps.database, normalisedEmail) : undefined;
  // verifyPassword does the same work for an unknown account, so timing does not reveal which emails exist.
  if (!(await verifyPassword(user?.password_hash ?? null, password)) || !user) return { kind: 'invalid' };
  // Only the account's streak resets (IP_POLICY.resetOnSuccess is false): one valid account must not launder
  // an IP's password-spraying failures.
  await limiter.refund(keys);
  return { kind: 'ok', user: { id: user.id, email: user.email, mfaEnabled: user.mfa_enabled } };
}

/** Seconds to wait when the limiter refuses (its 429 carries Retry-After), null when allowed. */
async function retryAfter(check: () => Promise<void>): Promise<number | null> {
  try {
    await check();
    return null;
  } catch (error) {
    if (error instanceof AppError && error.code === 'TooManyRequests')
      return Number(error.headers?.['retry-after'] ?? 60);
    throw error;
  }
}
