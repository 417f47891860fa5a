// SQL of the id_token signing keys (signing-keys.ts says when a key is published, signs and is dropped).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { SigningAlg } from './auth.columns.js';

export interface SigningKeyRow {
  id: string;
  kid: string;
  alg: SigningAlg;
  public_jwk: Record<string, unknown>;
  private_jwk_sealed: string;
  created_at: Date;
  activates_at: Date;
}

export interface NewSigningKey {
  kid: string;
  alg: SigningAlg;
  publicJwk: Record<string, unknown>;
  privateJwkSealed: string;
  createdAt: Date;
  activatesAt: Date;
}

/** Every stored key, oldest activation first within each alg. */
export async function listSigningKeys(db: Kysely<DB>): Promise<SigningKeyRow[]> {
  const rows = await db
    .selectFrom('signing_keys')
    .select(['id', 'kid', 'alg', 'public_jwk', 'private_jwk_sealed', 'created_at', 'activates_at'])
    .orderBy('alg')
    .orderBy('activates_at')
    .orderBy('created_at')
    .execute();
  return rows as SigningKeyRow[];
}

/**
 * Serialises whoever adds or drops keys, in every process, for the rest of the transaction: two processes that
 * find no key at the same moment make one set, not two.
 */
export async function lockSigningKeys(trx: Kysely<DB>): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('gable:signing-keys'))`.execute(trx);
}

export async function insertSigningKeys(db: Kysely<DB>, keys: NewSigningKey[]): Promise<void> {
  await db
    .insertInto('signing_keys')
    .values(
      keys.map((key) => ({
        kid: key.kid,
        alg: key.alg,
        public_jwk: JSON.stringify(key.publicJwk),
        private_jwk_sealed: key.privateJwkSealed,
        created_at: key.createdAt,
        activates_at: key.activatesAt,
      })),
    )
    .execute();
}

export async function deleteSigningKeys(db: Kysely<DB>, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom('signing_keys').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}
