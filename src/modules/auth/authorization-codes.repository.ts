// SQL of authorization codes (the partner flow). Codes are stored only as SHA-256 hashes.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export interface NewAuthorizationCode {
  codeHash: Buffer;
  client: string;
  user: string;
  brand: string;
  redirectUri: string;
  codeChallenge: string | null;
  mfaValidated: boolean;
  expiresAt: Date;
  scope: string | null;
  nonce: string | null;
  authTime: Date | null;
  amr: string[] | null;
}

export async function insertAuthorizationCode(db: Kysely<DB>, code: NewAuthorizationCode): Promise<void> {
  await db
    .insertInto('authorization_codes')
    .values({
      code_hash: code.codeHash,
      client: code.client,
      user: code.user,
      brand: code.brand,
      redirect_uri: code.redirectUri,
      code_challenge: code.codeChallenge,
      mfa_validated: code.mfaValidated,
      expires_at: code.expiresAt,
      used_at: null,
      family: null,
      scope: code.scope,
      nonce: code.nonce,
      auth_time: code.authTime,
      amr: code.amr,
    })
    .execute();
}

/** Locks the code row: two concurrent exchanges of one code serialise here, and only the first sees used_at null. */
export function findAuthorizationCodeForUpdate(db: Kysely<DB>, codeHash: Buffer) {
  return db
    .selectFrom('authorization_codes')
    .selectAll()
    .where('code_hash', '=', codeHash)
    .forUpdate()
    .executeTakeFirst();
}

export async function markAuthorizationCodeUsed(
  db: Kysely<DB>,
  codeHash: Buffer,
  usedAt: Date,
  family: string,
): Promise<void> {
  await db
    .updateTable('authorization_codes')
    .set({ used_at: usedAt, family })
    .where('code_hash', '=', codeHash)
    .execute();
}
