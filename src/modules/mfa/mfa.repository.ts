// SQL of a user's MFA state (columns of users).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export function findMfaState(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('users')
    .select(['email', 'mfa_enabled', 'mfa_secret'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A new (or replacement) secret, not yet enabled; the step history belongs to the old secret and goes with it. */
export async function storePendingSecret(
  db: Kysely<DB>,
  userId: string,
  encryptedSecret: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ mfa_secret: encryptedSecret, mfa_enabled: false, mfa_last_step: null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/**
 * Records that the code of `step` was used, only if it is later than the last used step: a conditional UPDATE, so
 * of two concurrent uses of one code exactly one changes the row (the other re-reads it after the lock and fails).
 */
export async function consumeStep(db: Kysely<DB>, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ mfa_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('mfa_last_step', 'is', null), eb('mfa_last_step', '<', step)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function enableMfa(db: Kysely<DB>, userId: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ mfa_enabled: true, updated_at: now }).where('id', '=', userId).execute();
}

export async function clearMfa(db: Kysely<DB>, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ mfa_enabled: false, mfa_secret: null, mfa_last_step: null, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
