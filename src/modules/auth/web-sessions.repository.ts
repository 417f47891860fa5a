// SQL of web sessions. Sessions are found by the SHA-256 hash of the cookie value only.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export interface WebSessionRow {
  id: string;
  user: string | null;
  mfa_passed: boolean;
  csrf_secret: string;
  pending: unknown;
  expires_at: Date;
  signed_in_at: Date | null;
}

const COLUMNS = ['id', 'user', 'mfa_passed', 'csrf_secret', 'pending', 'expires_at', 'signed_in_at'] as const;

export async function insertSession(
  db: Kysely<DB>,
  sessionHash: Buffer,
  csrfSecret: string,
  expiresAt: Date,
): Promise<WebSessionRow> {
  return db
    .insertInto('web_sessions')
    .values({ session_hash: sessionHash, user: null, csrf_secret: csrfSecret, pending: null, expires_at: expiresAt })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function findLiveSession(
  db: Kysely<DB>,
  sessionHash: Buffer,
  now: Date,
): Promise<WebSessionRow | undefined> {
  return db
    .selectFrom('web_sessions')
    .select(COLUMNS)
    .where('session_hash', '=', sessionHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export interface SessionChanges {
  user?: string | null;
  mfa_passed?: boolean;
  csrf_secret?: string;
  /** Serialised JSON, or null to clear. */
  pending?: string | null;
  session_hash?: Buffer;
  /** When the user signed in (OpenID Connect's auth_time); null when signed out. */
  signed_in_at?: Date | null;
}

/**
 * Applies the changes only while the session still has the cookie hash it was loaded with (compare-and-set):
 * every sign-in or sign-out rotates that hash, so a request that loaded the session before a concurrent
 * sign-in cannot write its conclusions (MFA passed, a chosen brand) onto the other user's session. False when
 * the session changed meanwhile.
 */
export async function updateSession(
  db: Kysely<DB>,
  id: string,
  expectedHash: Buffer,
  changes: SessionChanges,
  now: Date,
): Promise<boolean> {
  const row = await db
    .updateTable('web_sessions')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .where('session_hash', '=', expectedHash)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Signs the user out of every authorization-page session (after a password change, for one). */
export async function signOutEverywhere(db: Kysely<DB>, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('web_sessions')
    .set({ user: null, mfa_passed: false, pending: null, signed_in_at: null, updated_at: now })
    .where('user', '=', userId)
    .execute();
}

export async function deleteExpiredSessions(db: Kysely<DB>, before: Date): Promise<number> {
  const result = await db.deleteFrom('web_sessions').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Clears the pending request only if it is still the one with `pendingId`, and says whether this call did:
 * of two concurrent Approve clicks exactly one issues a code.
 */
export async function takePending(db: Kysely<DB>, id: string, pendingId: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('web_sessions')
    .set({ pending: null, updated_at: now })
    .where('id', '=', id)
    .where(sql<boolean>`pending->>'id' = ${pendingId}`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
