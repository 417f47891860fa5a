// SQL of a user's MFA state (columns of users), recovery codes, and whom an MFA reset concerns.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { subtreeQuery } from '../brands/index.js';

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

/** Replaces every recovery code of the user (none left from an earlier set) with the given hashes. */
export async function replaceRecoveryCodes(
  db: Kysely<DB>,
  userId: string,
  codeHashes: Buffer[],
  now: Date,
): Promise<void> {
  await deleteRecoveryCodes(db, userId);
  await db
    .insertInto('mfa_recovery_codes')
    .values(codeHashes.map((code_hash) => ({ code_hash, user: userId, created_at: now })))
    .execute();
}

export async function deleteRecoveryCodes(db: Kysely<DB>, userId: string): Promise<void> {
  await db.deleteFrom('mfa_recovery_codes').where('user', '=', userId).execute();
}

/**
 * Burns an unused code of the user: one conditional UPDATE, so of two concurrent uses of one code exactly one
 * changes the row. False for an unknown, another user's, or an already used code.
 */
export async function burnRecoveryCode(db: Kysely<DB>, userId: string, codeHash: Buffer, now: Date): Promise<boolean> {
  const burned = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('user', '=', userId)
    .where('used_at', 'is', null)
    .returning('code_hash')
    .executeTakeFirst();
  return burned !== undefined;
}

/** Whether the user is a live member of the brand or of a brand below it (the roster of GET /brands/:brand/users). */
export async function isMemberInSubtree(db: Kysely<DB>, userId: string, brandId: string): Promise<boolean> {
  const row = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user')
    .select('m.id')
    .where('m.user', '=', userId)
    .where('m.deleted_at', 'is', null)
    .where('u.deleted_at', 'is', null)
    .where('m.brand', 'in', sql<string>`(${subtreeQuery(sql`array[${brandId}]::uuid[]`)})`)
    .executeTakeFirst();
  return row !== undefined;
}

/** The brands the user holds a live membership in. */
export async function findMemberBrands(db: Kysely<DB>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships')
    .select('brand')
    .where('user', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('brand')
    .execute();
  return rows.map((row) => row.brand);
}
