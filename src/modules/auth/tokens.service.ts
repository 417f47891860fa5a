// Issuing tokens. Every grant ends here: a family (new login) or an existing family (refresh), an access
// token, and a refresh token unless the flow forbids one (implicit, client credentials).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Clock } from '../../lib/clock.js';
import { addSeconds } from '../../lib/clock.js';
import { hashToken, randomToken } from '../../lib/crypto.js';
import { ACCESS_TOKEN_SECONDS, FAMILY_LIFETIME_SECONDS } from './token-policy.js';
import { insertAccessToken, insertFamily, insertRefreshToken, type NewFamily } from './tokens.repository.js';

export interface IssuedTokens {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  token_type: 'Bearer';
  family: string;
}

export interface StartFamily extends Omit<NewFamily, 'expiresAt'> {
  withRefreshToken: boolean;
}

/** Starts a token family and issues its first pair. Pass a transaction to tie it to other writes. */
export async function issueNewFamily(db: Kysely<DB>, clock: Clock, start: StartFamily): Promise<IssuedTokens> {
  const now = clock.now();
  const familyExpiresAt = addSeconds(now, FAMILY_LIFETIME_SECONDS);
  const family = await insertFamily(db, { ...start, expiresAt: familyExpiresAt });
  return issueInFamily(db, clock, family, familyExpiresAt, start.withRefreshToken);
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
  const accessExpiresAt = new Date(
    Math.min(addSeconds(now, ACCESS_TOKEN_SECONDS).getTime(), familyExpiresAt.getTime()),
  );
  const accessHash = hashToken(accessToken);
  await insertAccessToken(db, accessHash, family, accessExpiresAt);
  const issued: IssuedTokens = {
    access_token: accessToken,
    // What it really lives: the full lifetime, or the rest of the login when that ends sooner (a refresh in the
    // family's last month). Whole seconds, rounded down, so a client never counts on a second the token lacks.
    expires_in: Math.floor((accessExpiresAt.getTime() - now.getTime()) / 1000),
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
