// SQL of RFC 7662 introspection: an access or a refresh token by its hash, with what decides whether it is live
// (its family, client and user) and what the answer tells. One indexed query each, prepared (resource servers may
// introspect on every request they serve).
import type { Kysely } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import type { DB } from '../../db/types.js';

function introspectAccessTokenQuery(db: Kysely<DB>, tokenHash: Buffer) {
  return db
    .selectFrom('access_tokens as t')
    .innerJoin('token_families as f', 'f.id', 't.family')
    .innerJoin('oauth_clients as c', 'c.id', 'f.client')
    .leftJoin('users as u', 'u.id', 'f.user')
    .select([
      't.created_at as issued_at',
      't.expires_at as token_expires_at',
      'f.expires_at as family_expires_at',
      'f.revoked_at',
      'f.user',
      'f.brand',
      'f.scope',
      'f.mfa_validated',
      'c.client_id',
      'c.deleted_at as client_deleted_at',
      'u.deleted_at as user_deleted_at',
      'u.mfa_enabled',
    ])
    .where('t.token_hash', '=', tokenHash);
}

function introspectRefreshTokenQuery(db: Kysely<DB>, tokenHash: Buffer) {
  return db
    .selectFrom('refresh_tokens as t')
    .innerJoin('token_families as f', 'f.id', 't.family')
    .innerJoin('oauth_clients as c', 'c.id', 'f.client')
    .leftJoin('users as u', 'u.id', 'f.user')
    .select([
      't.created_at as issued_at',
      't.expires_at as token_expires_at',
      't.rotated_at',
      'f.expires_at as family_expires_at',
      'f.revoked_at',
      'f.user',
      'f.brand',
      'f.scope',
      'c.client_id',
      'c.deleted_at as client_deleted_at',
      'u.deleted_at as user_deleted_at',
    ])
    .where('t.token_hash', '=', tokenHash);
}

type RowOf<Build extends (db: Kysely<DB>, hash: Buffer) => { executeTakeFirst(): Promise<unknown> }> = NonNullable<
  Awaited<ReturnType<ReturnType<Build>['executeTakeFirst']>>
>;
export type IntrospectedAccessToken = RowOf<typeof introspectAccessTokenQuery>;
export type IntrospectedRefreshToken = RowOf<typeof introspectRefreshTokenQuery>;

export const findAccessTokenToIntrospect = preparedQuery<[Buffer], IntrospectedAccessToken>(
  'auth.introspect-access-token',
  [Buffer.alloc(32)],
  introspectAccessTokenQuery,
);

export const findRefreshTokenToIntrospect = preparedQuery<[Buffer], IntrospectedRefreshToken>(
  'auth.introspect-refresh-token',
  [Buffer.alloc(32)],
  introspectRefreshTokenQuery,
);
