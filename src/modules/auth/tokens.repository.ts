// SQL of token families, access and refresh tokens. Tokens are looked up by their SHA-256 hash only.
import { sql, type Kysely } from 'kysely';
import { preparedQuery, runNamed, type NamedStatement, type StatementTarget } from '../../db/prepared.js';
import type { Database } from '../../db/database.js';
import type { DB, Narrowed } from '../../db/types.js';
import type { ClientKind } from './auth.columns.js';
import { userRowQuery, type UserRow } from '../users/index.js';

export interface NewFamily {
  user: string | null;
  client: string;
  brand: string | null;
  grantType: string;
  mfaValidated: boolean;
  expiresAt: Date;
  /** What the login asked for (null: no scope sent), and how the user signed in (OpenID Connect logins). */
  scope?: string | null;
  authTime?: Date | null;
  amr?: string[] | null;
}

/** A new login's first pair: its access token, and its refresh token unless the flow issues none. */
export interface FirstPair {
  accessHash: Buffer;
  accessExpiresAt: Date;
  refreshHash: Buffer | null;
}

/**
 * A new family with its first pair, in ONE statement (a login's hot path: three inserts, one round trip). The
 * refresh token lives as long as the family. Prepared when run on the pool: every login runs the same text.
 * `alongside` is a write that belongs with the login (the password grant's refund of its attempt claim): it runs
 * in the same statement, so both take one round trip and one commit, and neither lands without the other.
 */
export async function insertFamilyWithPair(
  target: StatementTarget,
  family: NewFamily,
  pair: FirstPair,
  alongside?: NamedStatement,
): Promise<string> {
  const statement = sql<{ id: string }>`
    with ${alongside ? sql`alongside as (${alongside.statement}), ` : sql``}family as (
      insert into token_families ("user", client, brand, grant_type, mfa_validated, expires_at, scope, auth_time, amr)
      values (${family.user}, ${family.client}, ${family.brand}, ${family.grantType}, ${family.mfaValidated},
              ${family.expiresAt}, ${family.scope ?? null}, ${family.authTime ?? null}::timestamptz,
              ${family.amr ?? null}::text[])
      returning id, expires_at
    ), access_token as (
      insert into access_tokens (token_hash, family, expires_at)
      select ${pair.accessHash}, id, ${pair.accessExpiresAt}::timestamptz from family
    ), refresh_token as (
      insert into refresh_tokens (token_hash, family, expires_at, access_token_hash)
      select ${pair.refreshHash}::bytea, id, expires_at, ${pair.accessHash}::bytea from family
       where ${pair.refreshHash}::bytea is not null
    )
    select id from family
  `;
  const name = `auth.insert-family-with-pair${alongside ? `+${alongside.name}` : ''}`;
  const rows = await runNamed(target, name, statement);
  return rows[0]!.id;
}

export async function insertAccessToken(
  db: Kysely<DB>,
  tokenHash: Buffer,
  family: string,
  expiresAt: Date,
): Promise<void> {
  await db.insertInto('access_tokens').values({ token_hash: tokenHash, family, expires_at: expiresAt }).execute();
}

/** A refresh token, with the access token issued beside it (the pair a lost-response replay may retire). */
export async function insertRefreshToken(
  db: Kysely<DB>,
  tokenHash: Buffer,
  family: string,
  expiresAt: Date,
  accessTokenHash: Buffer,
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      token_hash: tokenHash,
      family,
      expires_at: expiresAt,
      rotated_at: null,
      access_token_hash: accessTokenHash,
    })
    .execute();
}

/** Records the first use of an access token (once: later uses find it set and write nothing). */
export async function markAccessTokenUsed(db: Kysely<DB>, tokenHash: Buffer, at: Date): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .execute();
}

/** Everything the bearer check needs, in one indexed query on the hot path. */
export function bearerQuery(db: Kysely<DB>, tokenHash: Buffer) {
  return db
    .selectFrom('access_tokens as t')
    .innerJoin('token_families as f', 'f.id', 't.family')
    .innerJoin('oauth_clients as c', 'c.id', 'f.client')
    .leftJoin('users as u', 'u.id', 'f.user')
    .select([
      't.expires_at as token_expires_at',
      't.used_at',
      'f.id as family',
      'f.user',
      'f.brand as bound_brand',
      'f.mfa_validated',
      'f.revoked_at',
      'f.expires_at as family_expires_at',
      'f.scope',
      'c.id as client',
      'c.client_id',
      'c.kind as client_kind',
      'c.deleted_at as client_deleted_at',
      'u.deleted_at as user_deleted_at',
      'u.mfa_enabled',
      'u.active_brand',
    ])
    .where('t.token_hash', '=', tokenHash);
}

/** The access token's family, client and user, for bearer authentication on every request (prepared: hot path). */
export const findBearer = preparedQuery<[Buffer], BearerRow>('auth.find-bearer', [Buffer.alloc(32)], bearerQuery);
export type BearerRow = Narrowed<
  NonNullable<Awaited<ReturnType<ReturnType<typeof bearerQuery>['executeTakeFirst']>>>,
  { client_kind: ClientKind }
>;

/**
 * The bearer row and the caller's user record row in ONE round trip, for routes that present the caller
 * (`config.withUserRow`): `GET /users/self` is what every client calls first, and a second query would cost
 * it as much again. The user row's columns are null when the token has no user (or the user is deleted).
 */
export function bearerWithUserRowQuery(db: Kysely<DB>, tokenHash: Buffer) {
  return bearerQuery(db, tokenHash)
    .leftJoinLateral(userRowQuery(db, sql.ref<string | null>('f.user')).as('ur'), (join) => join.onTrue())
    .selectAll('ur');
}
export type BearerWithUserRow = BearerRow & { [K in keyof UserRow]: UserRow[K] | null };
export const findBearerWithUserRow = preparedQuery<[Buffer], BearerWithUserRow>(
  'auth.find-bearer-with-user-row',
  [Buffer.alloc(32)],
  bearerWithUserRowQuery,
);

/** The user row inside a bearer-with-user row: every column is null without a live user, none is with one. */
export function userRowOf(row: BearerWithUserRow): UserRow | null {
  return row.id === null ? null : (row as unknown as UserRow);
}

/**
 * The refresh token with its family, the refresh row locked (FOR UPDATE): of two concurrent refreshes with one
 * token, the second waits for the first to commit and then sees rotated_at set.
 */
export function findRefreshTokenForUpdate(db: Kysely<DB>, tokenHash: Buffer) {
  return db
    .selectFrom('refresh_tokens as r')
    .innerJoin('token_families as f', 'f.id', 'r.family')
    .leftJoin('users as u', 'u.id', 'f.user')
    .select([
      'r.family',
      'r.expires_at as token_expires_at',
      'r.rotated_at',
      'r.replaced_by',
      'r.replayed_at',
      'f.client',
      'f.user',
      'f.brand',
      'f.expires_at as family_expires_at',
      'f.revoked_at',
      'f.scope',
      'u.deleted_at as user_deleted_at',
    ])
    .where('r.token_hash', '=', tokenHash)
    .forUpdate('r')
    .executeTakeFirst();
}

/** What a one-statement rotation answers: the family (and its scope), when the login and the new access token end. */
export interface Rotation {
  family: string;
  scope: string | null;
  family_expires_at: Date;
  access_expires_at: Date;
}

/**
 * A refresh token's common case in ONE statement: the token is live, its client's, never rotated, its family
 * neither revoked nor expired and its user not deleted — then it is marked rotated and the new pair is inserted
 * in the same family. The new access token lives `accessSeconds`, or to the family's end when that comes sooner.
 * Nothing is written and nothing answered otherwise (an unknown, expired or revoked token, or a rotated one
 * coming back): the caller then takes the careful path, which tells those cases apart. Two concurrent rotations
 * of one token: the second waits for the first's row lock, then finds `rotated_at` set and updates nothing.
 */
const ROTATE_REFRESH_TOKEN = `
  with rotated as (
    update refresh_tokens r
       set rotated_at = $2, replaced_by = $5
      from token_families f
      left join users u on u.id = f."user"
     where r.token_hash = $1
       and r.rotated_at is null
       and r.expires_at > $2
       and f.id = r.family
       and f.client = $3
       and f.revoked_at is null
       and f.expires_at > $2
       and u.deleted_at is null
    returning r.family, f.scope, f.expires_at as family_expires_at,
              least($2::timestamptz + make_interval(secs => $6), f.expires_at) as access_expires_at
  ), access_token as (
    insert into access_tokens (token_hash, family, expires_at)
    select $4, family, access_expires_at from rotated
  ), refresh_token as (
    insert into refresh_tokens (token_hash, family, expires_at, access_token_hash)
    select $5, family, family_expires_at, $4 from rotated
  )
  select family, scope, family_expires_at, access_expires_at from rotated`;

export async function rotateRefreshToken(
  database: Pick<Database, 'query'>,
  rotation: {
    tokenHash: Buffer;
    client: string;
    at: Date;
    accessHash: Buffer;
    refreshHash: Buffer;
    accessSeconds: number;
  },
): Promise<Rotation | undefined> {
  const { rows } = await database.query({
    name: 'auth.rotate-refresh-token',
    text: ROTATE_REFRESH_TOKEN,
    values: [
      rotation.tokenHash,
      rotation.at,
      rotation.client,
      rotation.accessHash,
      rotation.refreshHash,
      rotation.accessSeconds,
    ],
  });
  return rows[0] as Rotation | undefined;
}

export async function markRefreshTokenRotated(
  db: Kysely<DB>,
  tokenHash: Buffer,
  at: Date,
  replacedBy: Buffer,
): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ rotated_at: at, replaced_by: replacedBy })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/**
 * The pair a rotation produced, if nobody has touched it: its refresh token not rotated, its access token never
 * used. Locked, so that a concurrent use of the pair waits for the replay's decision.
 */
export async function findUntouchedSuccessor(db: Kysely<DB>, refreshHash: Buffer) {
  return db
    .selectFrom('refresh_tokens as r')
    .innerJoin('access_tokens as a', 'a.token_hash', 'r.access_token_hash')
    .select(['r.token_hash as refresh_hash', 'a.token_hash as access_hash'])
    .where('r.token_hash', '=', refreshHash)
    .where('r.rotated_at', 'is', null)
    .where('a.used_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** Retires a pair the client never received: both tokens are deleted, so neither can be used later. */
export async function deletePair(db: Kysely<DB>, pair: { refresh_hash: Buffer; access_hash: Buffer }): Promise<void> {
  await db.deleteFrom('refresh_tokens').where('token_hash', '=', pair.refresh_hash).execute();
  await db.deleteFrom('access_tokens').where('token_hash', '=', pair.access_hash).execute();
}

/** Spends the one lost-response replay of a rotated refresh token, which now points at the pair issued for it. */
export async function markReplayed(db: Kysely<DB>, tokenHash: Buffer, at: Date, replacedBy: Buffer): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ replayed_at: at, replaced_by: replacedBy })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/** Revokes every token of the family at once (the bearer check and the refresh grant read revoked_at). */
export async function revokeFamily(db: Kysely<DB>, family: string, at: Date, reason: string): Promise<void> {
  await db
    .updateTable('token_families')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('id', '=', family)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The family (and its client) of an access or refresh token, for RFC 7009 revocation. */
export async function findFamilyOfToken(db: Kysely<DB>, tokenHash: Buffer, kind: 'access_token' | 'refresh_token') {
  const query =
    kind === 'access_token'
      ? db.selectFrom('access_tokens as t').innerJoin('token_families as f', 'f.id', 't.family')
      : db.selectFrom('refresh_tokens as t').innerJoin('token_families as f', 'f.id', 't.family');
  return query.select(['f.id as family', 'f.client']).where('t.token_hash', '=', tokenHash).executeTakeFirst();
}

/** The scope and client of a refresh token's login, read before a refresh that asks for a narrower scope. */
export async function findRefreshTokenLogin(db: Kysely<DB>, tokenHash: Buffer) {
  return db
    .selectFrom('refresh_tokens as r')
    .innerJoin('token_families as f', 'f.id', 'r.family')
    .select(['f.client', 'f.scope'])
    .where('r.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Narrows a login's scope (a refresh that asked for less): every token of the login has the new one. */
export async function setFamilyScope(db: Kysely<DB>, family: string, scope: string): Promise<void> {
  await db.updateTable('token_families').set({ scope }).where('id', '=', family).execute();
}

export async function markFamilyMfaValidated(db: Kysely<DB>, family: string): Promise<void> {
  await db.updateTable('token_families').set({ mfa_validated: true }).where('id', '=', family).execute();
}

/** The login of a family as OpenID Connect tells it (userinfo, a refresh's id_token). */
export async function findFamilyLogin(db: Kysely<DB>, family: string) {
  return db
    .selectFrom('token_families')
    .select(['user', 'scope', 'auth_time', 'amr'])
    .where('id', '=', family)
    .executeTakeFirst();
}
