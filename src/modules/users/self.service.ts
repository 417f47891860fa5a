// What a user changes on themselves: profile, password, active brand.
import type { Deps } from '../../platform/deps.js';
import { errors, type ErrorAttributes } from '../../errors.js';
import { MIN_PASSWORD_LENGTH, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { attemptKey, ACCOUNT_POLICY, AttemptLimiter, type AttemptKey } from '../../platform/attempts.js';
import type { Actor } from '../auth/index.js';
import { isValidTimeZone } from './local-time.js';
import {
  findPasswordHash,
  revokeOtherFamilies,
  setActiveBrand,
  setPasswordHash,
  updateProfile,
  type ProfileChanges,
} from './users.repository.js';
import type { ChangePasswordBody, UpdateSelfBody, UserRecord } from './users.schemas.js';
import { loadUserRecord } from './users.service.js';
import { signOutEverywhere } from '../auth/index.js';
import { replanTriggersOfUser } from '../triggers/index.js';

/** E.164: a plus, a non-zero country digit, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;
const PROFILE_FIELDS = [
  'first_name',
  'last_name',
  'username',
  'phone_number',
  'email_signature',
  'bio',
  'website',
  'instagram',
  'twitter',
  'linkedin',
  'youtube',
  'facebook',
  'tiktok',
  'designation',
  'timezone',
  'daily_enabled',
  'push_allowed',
] as const satisfies readonly (keyof UpdateSelfBody & keyof ProfileChanges)[];
/** Optional profile fields: an empty string clears them, as null does (web forms send "" for an emptied input). */
const CLEARABLE_FIELDS = new Set<string>([
  'username',
  'phone_number',
  'website',
  'instagram',
  'twitter',
  'linkedin',
  'youtube',
  'facebook',
  'tiktok',
  'designation',
]);

export const PASSWORD_CHANGED = 'password_changed';

/**
 * Applies the profile fields present in the body. Unknown fields, `email` among them, were already dropped by
 * the schema: an email change needs a confirmation flow this server does not have (docs/users-and-brands.md).
 */
export async function updateSelf(
  deps: Deps,
  userId: string,
  input: UpdateSelfBody,
  brand: string | null | undefined,
): Promise<UserRecord> {
  const body = withEmptiesCleared(input);
  const problems: ErrorAttributes = {};
  if (body.timezone !== undefined && !isValidTimeZone(body.timezone))
    problems.timezone = ['must be an IANA time zone name, e.g. America/Chicago'];
  if (typeof body.phone_number === 'string' && !E164.test(body.phone_number))
    problems.phone_number = ['must be in E.164 form, e.g. +14155550100'];
  if (Object.keys(problems).length > 0)
    throw errors.validation(`Invalid ${Object.keys(problems).join(', ')}`, problems);

  const changes: ProfileChanges = {};
  for (const field of PROFILE_FIELDS) {
    if (body[field] !== undefined) Object.assign(changes, { [field]: body[field] });
  }
  if (Object.keys(changes).length > 0) {
    await deps.db.transaction().execute(async (trx) => {
      const updated = await updateProfile(trx, userId, changes, deps.clock.now());
      if (!updated) throw errors.notFound('User');
      // Triggers fire at local times of their user's zone (decisions §7).
      if (changes.timezone !== undefined) await replanTriggersOfUser(trx, deps, userId);
    });
  }
  return loadUserRecord(deps, userId, { brand });
}

function withEmptiesCleared(body: UpdateSelfBody): UpdateSelfBody {
  return Object.fromEntries(
    Object.entries(body).map(([field, value]) => [field, value === '' && CLEARABLE_FIELDS.has(field) ? null : value]),
  ) as UpdateSelfBody;
}

/**
 * Changes the password after checking the old one (decisions §3). Every OTHER token family of the user is
 * revoked and every authorization-page session signed out, so a stolen session dies; the caller's own family
 * keeps working. A user without a password (an
 * invited or partner-created account) cannot use this endpoint: letting a bearer token alone set the first
 * password would turn a leaked token into a permanent account takeover. Such a user gets a password from
 * an operator (`gable admin user set-password`) or a future reset flow.
 */
export async function changePassword(deps: Deps, actor: Actor, body: ChangePasswordBody): Promise<void> {
  const userId = actor.userId;
  if (!userId) throw errors.forbidden('This endpoint needs a user token, not a client token');
  // An account-wide secret: a partner token (bound to one brand) may not change it.
  if (actor.boundBrand)
    throw errors.forbidden('Changing the password needs a first-party login: a partner token acts only in its brand');
  if (body.new_password.length < MIN_PASSWORD_LENGTH) {
    throw errors.invalidField('new_password', `must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  // The old password is a secret a stolen token does not carry: guess it too often and we stop answering.
  const row = await findPasswordHash(deps.db, userId);
  if (!row) throw errors.notFound('User');
  if (row.password_hash === null) {
    throw errors.forbidden('This account has no password yet; ask an operator to set one');
  }
  // The account's key of the password grant and the pages: a stolen token adds no guesses of its own. Claimed as
  // a failure before the slow hash, so parallel guesses cannot all pass the limit; refunded if right.
  const limiter = new AttemptLimiter(deps.database, deps.clock);
  const keys: AttemptKey[] = [attemptKey('account', row.email.trim().toLowerCase(), ACCOUNT_POLICY)];
  await limiter.claim(keys);
  if (!(await verifyPassword(row.password_hash, body.old_password)))
    throw errors.forbidden('The old password is wrong');
  await limiter.refund(keys);

  const passwordHash = await hashPassword(body.new_password);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, userId, passwordHash, now);
    await revokeOtherFamilies(trx, userId, actor.family, PASSWORD_CHANGED, now);
    // Whoever signed in on the authorization pages with the old password could mint partner tokens there.
    await signOutEverywhere(trx, userId, now);
  });
}

/** Stores the brand (already checked for access by the caller's brand context) as the user's active brand. */
export async function changeActiveBrand(deps: Deps, userId: string, brand: string): Promise<UserRecord> {
  await setActiveBrand(deps.db, userId, brand, deps.clock.now());
  return loadUserRecord(deps, userId, { brand });
}
