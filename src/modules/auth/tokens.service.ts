// Issuing tokens. Every grant ends here: a family (new login) or an existing family (refresh), an access
// token, and a refresh token unless the flow forbids one (implicit, client credentials).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Clock } from '../../lib/clock.js';
import { addSeconds } from '../../lib/clock.js';
import { hashToken, randomToken } from '../../lib/crypto.js';
import { ACCESS_TOKEN_SECONDS, FAMILY_LIFETIME_SECONDS } from './token-policy.js';
import type { Database } from '../../db/database.js';
import type { NamedStatement, StatementTarget } from '../../db/prepared.js';
import {
  insertAccessToken,
  insertFamilyWithPair,
  insertRefreshToken,
  rotateRefreshToken,
  type NewFamily,
} from './tokens.repository.js';
import type { TokenResponse } from './oauth.schemas.js';

export interface IssuedTokens {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  token_type: 'Bearer';
  family: string;
  /** The family's scope, when the grant knows it (the refresh grant: an openid family gets a new id_token). */
  scope?: string | null;
}

/** The token endpoint's answer to a grant; `extra` is what only that grant adds (the user, the brand). */
export function tokenResponse(
  tokens: IssuedTokens,
  extra: Pick<TokenResponse, 'data' | 'brand' | 'id_token'> = {},
): TokenResponse {
  const { access_token, refresh_token, expires_in } = tokens;
  return {
    access_token,
    ...(refresh_token !== undefined ? { refresh_token } : {}),
    expires_in,
    code: 'OK',
    token_type: 'Bearer',
    ...extra,
  };
}

export interface StartFamily extends Omit<NewFamily, 'expiresAt'> {
  withRefreshToken: boolean;
}

/**
 * Starts a token family and issues its first pair (one statement). `target` is the pool (the statement then runs
 * prepared) or a transaction, to tie the family to other writes; `alongside`, a write that runs inside the same
 * statement (`insertFamilyWithPair`).
 */
export async function issueNewFamily(
  target: StatementTarget,
  clock: Clock,
  start: StartFamily,
  alongside?: NamedStatement,
): Promise<IssuedTokens> {
  const now = clock.now();
  const familyExpiresAt = addSeconds(now, FAMILY_LIFETIME_SECONDS);
  const accessToken = randomToken();
  const refreshToken = start.withRefreshToken ? randomToken() : undefined;
  const accessExpiresAt = accessTokenExpiry(now, familyExpiresAt);
  const { withRefreshToken: _, ...family } = start;
  const id = await insertFamilyWithPair(
    target,
    { ...family, expiresAt: familyExpiresAt },
    { accessHash: hashToken(accessToken), accessExpiresAt, refreshHash: refreshToken ? hashToken(refreshToken) : null },
    alongside,
  );
  return {
    access_token: accessToken,
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    expires_in: expiresIn(accessExpiresAt, now),
    token_type: 'Bearer',
    family: id,
  };
}

/** Issues a new access token (and refresh token) in an existing family. */
export async function issueInFamily(
  db: Kysely<DB>,
  clock: Clock,
  family: string,
  familyExpiresAt: Date,
  withRefreshToken: boolean,
): Promise<IssuedTokens> {
  const now = clock.now();
  const accessToken = randomToken();
  const accessExpiresAt = accessTokenExpiry(now, familyExpiresAt);
  const accessHash = hashToken(accessToken);
  await insertAccessToken(db, accessHash, family, accessExpiresAt);
  const issued: IssuedTokens = {
    access_token: accessToken,
    expires_in: expiresIn(accessExpiresAt, now),
    token_type: 'Bearer',
    family,
  };
  if (withRefreshToken) {
    const refreshToken = randomToken();
    await insertRefreshToken(db, hashToken(refreshToken), family, familyExpiresAt, accessHash);
    issued.refresh_token = refreshToken;
  }
  return issued;
}

/**
 * A refresh in its common case — a live token seen for the first time — in one statement: the token is marked
 * rotated and a new pair issued in its family. Null when the token is anything else (unknown, another client's,
 * expired, revoked, already rotated): the refresh grant then decides on the careful path what it is.
 */
export async function rotateFreshRefreshToken(
  database: Pick<Database, 'query'>,
  clock: Clock,
  tokenHash: Buffer,
  client: string,
): Promise<IssuedTokens | null> {
  const now = clock.now();
  const accessToken = randomToken();
  const refreshToken = randomToken();
  const rotation = await rotateRefreshToken(database, {
    tokenHash,
    client,
    at: now,
    accessHash: hashToken(accessToken),
    refreshHash: hashToken(refreshToken),
    accessSeconds: ACCESS_TOKEN_SECONDS,
  });
  if (!rotation) return null;
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    expires_in: expiresIn(rotation.access_expires_at, now),
    token_type: 'Bearer',
    family: rotation.family,
    scope: rotation.scope,
  };
}

/** An access token lives its full lifetime, or to the end of its login when that comes sooner. */
function accessTokenExpiry(now: Date, familyExpiresAt: Date): Date {
  return new Date(Math.min(addSeconds(now, ACCESS_TOKEN_SECONDS).getTime(), familyExpiresAt.getTime()));
}

/**
 * What an access token really lives: the full lifetime, or the rest of the login when that ends sooner (a refresh
 * in the family's last month). Whole seconds, rounded down, so a client never counts on a second the token lacks.
 */
function expiresIn(expiresAt: Date, now: Date): number {
  return Math.floor((expiresAt.getTime() - now.getTime()) / 1000);
}
