// Creating authorization codes and implicit-flow tokens: called by the web pages of the partner flow
// (src/web) once the user has logged in, picked a brand and consented. The exchange half lives in
// authorization-code.grant.ts.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Clock } from '../../lib/clock.js';
import { addSeconds } from '../../lib/clock.js';
import { hashToken, randomToken } from '../../lib/crypto.js';
import { insertAuthorizationCode } from './authorization-codes.repository.js';
import { AUTHORIZATION_CODE_SECONDS } from './token-policy.js';
import { issueNewFamily, type IssuedTokens } from './tokens.service.js';

export interface AuthorizationGrant {
  /** oauth_clients.id (the row's uuid, not the public client_id). */
  client: string;
  /** users.id */
  user: string;
  /** brands.id the user picked: the tokens act only in this brand's subtree. */
  brand: string;
  /** Exactly as the client sent it; the exchange must present the same string. */
  redirectUri: string;
  /** PKCE S256 challenge (base64url SHA-256 of the verifier), or null when the client sent none. */
  codeChallenge: string | null;
  /** True when the user passed TOTP during this login (or has no MFA): the family starts validated. */
  mfaValidated: boolean;
  /** The scope granted (decisions §22; null: stored before, `full`); with `openid` the exchange adds an id_token. */
  scope?: string | null;
  /** The request's nonce, echoed in the id_token (OpenID Connect requests only). */
  nonce?: string | null;
  /** When the user signed in on the pages, and how (`pwd`, `otp`): the id_token's auth_time and amr. */
  authTime?: Date | null;
  amr?: string[] | null;
}

/** Stores a single-use code valid for 10 minutes and returns it (only its hash is kept). */
export async function createAuthorizationCode(
  db: Kysely<DB>,
  clock: Clock,
  grant: AuthorizationGrant,
): Promise<string> {
  const code = randomToken();
  await insertAuthorizationCode(db, {
    codeHash: hashToken(code),
    client: grant.client,
    user: grant.user,
    brand: grant.brand,
    redirectUri: grant.redirectUri,
    codeChallenge: grant.codeChallenge,
    mfaValidated: grant.mfaValidated,
    expiresAt: addSeconds(clock.now(), AUTHORIZATION_CODE_SECONDS),
    scope: grant.scope ?? null,
    nonce: grant.nonce ?? null,
    authTime: grant.authTime ?? null,
    amr: grant.amr ?? null,
  });
  return code;
}

/** The implicit flow's grant: no redirect check or PKCE follows; the OpenID fields go on the family for userinfo. */
export type ImplicitGrant = Omit<AuthorizationGrant, 'redirectUri' | 'codeChallenge' | 'nonce'>;

/** Implicit flow (response_type=token): an access token bound to the brand, never a refresh token. */
export async function issueImplicitToken(db: Kysely<DB>, clock: Clock, grant: ImplicitGrant): Promise<IssuedTokens> {
  return issueNewFamily(db, clock, {
    user: grant.user,
    client: grant.client,
    brand: grant.brand,
    grantType: 'implicit',
    mfaValidated: grant.mfaValidated,
    withRefreshToken: false,
    scope: grant.scope ?? null,
    authTime: grant.authTime ?? null,
    amr: grant.amr ?? null,
  });
}
