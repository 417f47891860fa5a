// Operator actions on user accounts (`gable admin user …`, the demo world).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import { randomToken } from '../../lib/crypto.js';
import { MIN_PASSWORD_LENGTH, hashPassword } from '../../lib/passwords.js';
import { isValidTimeZone } from './local-time.js';
import { findLiveUserByRef, insertUser, setPasswordHash } from './users.repository.js';

// Deliberately loose: one @, something either side, a dot in the domain. Deliverability is the mail
// server's business; this only catches a pasted name or a missing domain.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewAccount {
  id?: string;
  email: string;
  /** null = an account without a password (has_password false; it cannot use the password grant). */
  password: string | null;
  firstName?: string;
  lastName?: string;
  timezone?: string;
}

export async function createAccount(db: Kysely<DB>, account: NewAccount): Promise<{ id: string; email: string }> {
  const email = account.email.trim();
  if (!EMAIL.test(email)) throw errors.invalidField('email', `"${account.email}" is not an email address`);
  const timezone = account.timezone ?? 'UTC';
  if (!isValidTimeZone(timezone))
    throw errors.invalidField('timezone', `"${timezone}" is not an IANA time zone name (e.g. America/Chicago)`);
  if (account.password !== null) assertPasswordRule(account.password);
  if (await findLiveUserByRef(db, email)) throw errors.conflict(`A user with email ${email} already exists`);
  const passwordHash = account.password === null ? null : await hashPassword(account.password);
  try {
    return await insertUser(db, {
      ...(account.id ? { id: account.id } : {}),
      email,
      passwordHash,
      firstName: account.firstName?.trim() ?? '',
      lastName: account.lastName?.trim() ?? '',
      timezone,
    });
  } catch (error) {
    // Lost a race with another insert of the same email (users_email_live_idx).
    if ((error as { code?: string }).code === '23505')
      throw errors.conflict(`A user with email ${email} already exists`);
    throw error;
  }
}

export async function setAccountPassword(
  db: Kysely<DB>,
  clock: { now(): Date },
  userRef: string,
  password: string,
): Promise<{ id: string; email: string }> {
  assertPasswordRule(password);
  const user = await findLiveUserByRef(db, userRef.trim());
  if (!user) throw errors.notFound(`User ${userRef}`);
  await setPasswordHash(db, user.id, await hashPassword(password), clock.now());
  return user;
}

/** decisions §3: at least 8 characters, no composition rules. */
export function assertPasswordRule(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw errors.invalidField('password', `must be at least ${MIN_PASSWORD_LENGTH} characters`);
}

/** 128 random bits, URL-safe: strong, and easy to copy from a terminal. */
export function generatePassword(): string {
  return randomToken(16);
}
