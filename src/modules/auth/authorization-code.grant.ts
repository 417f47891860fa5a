// Authorization-code exchange (partner and public clients), the second half of the flow whose first half is
// the /oauth2/auth pages (src/web) calling createAuthorizationCode. RFC 6749 §4.1.3 with PKCE (RFC 7636).
import type { Deps } from '../../platform/deps.js';
import { hashToken, safeEqual, sha256Base64Url } from '../../lib/crypto.js';
import { findAuthorizationCodeForUpdate, markAuthorizationCodeUsed } from './authorization-codes.repository.js';
import type { ClientRow } from './clients.repository.js';
import { findLiveUserId, findUserClaims } from '../users/index.js';
import { issueIdToken } from './id-token.js';
import { includesOpenid, type ClaimsUser } from './openid.claims.js';
import { oauthErrors } from './oauth-errors.js';
import type { TokenResponse } from './oauth.schemas.js';
import { revokeFamily } from './tokens.repository.js';
import { issueNewFamily, tokenResponse, type IssuedTokens } from './tokens.service.js';

export const CODE_REUSE_REVOKED_REASON = 'authorization_code_reuse';
/** RFC 7636 §4.1: 43–128 characters of the unreserved set. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface CodeExchange {
  code: string;
  redirectUri: string;
  codeVerifier: string | undefined;
}

type CodeRow = NonNullable<Awaited<ReturnType<typeof findAuthorizationCodeForUpdate>>>;
type Outcome =
  { tokens: IssuedTokens; brand: string; row: CodeRow; userRecord: ClaimsUser | undefined } | { refused: string };

export async function authorizationCodeGrant(
  deps: Deps,
  client: ClientRow,
  exchange: CodeExchange,
): Promise<TokenResponse> {
  const codeHash = hashToken(exchange.code);
  // Refusals are returned, not thrown, so that a reuse revocation commits.
  const outcome = await deps.db.transaction().execute(async (trx): Promise<Outcome> => {
    const row = await findAuthorizationCodeForUpdate(trx, codeHash);
    const now = deps.clock.now();
    if (!row || row.client !== client.id) return { refused: 'The authorization code is invalid' };
    if (row.used_at !== null) {
      // A code seen twice was intercepted or replayed: whatever the first use issued is no longer trusted.
      if (row.family) await revokeFamily(trx, row.family, now, CODE_REUSE_REVOKED_REASON);
      return { refused: 'The authorization code has already been used: the tokens it issued have been revoked' };
    }
    if (row.expires_at <= now) return { refused: 'The authorization code has expired' };
    if (row.redirect_uri !== exchange.redirectUri)
      return { refused: 'redirect_uri does not match the authorization request' };
    const pkceProblem = checkPkce(client, row.code_challenge, exchange.codeVerifier);
    if (pkceProblem) return { refused: pkceProblem };
    // An OpenID login reads the user's claims here, with the liveness check: one query, not a second after commit.
    const openid = includesOpenid(row.scope);
    const userRecord = openid ? await findUserClaims(trx, row.user) : undefined;
    if (!(openid ? userRecord : await findLiveUserId(trx, row.user)))
      return { refused: 'The authorization code is invalid' };

    const tokens = await issueNewFamily(trx, deps.clock, {
      user: row.user,
      client: client.id,
      brand: row.brand,
      grantType: 'authorization_code',
      mfaValidated: row.mfa_validated,
      withRefreshToken: true,
      scope: row.scope,
      authTime: row.auth_time,
      amr: row.amr,
    });
    await markAuthorizationCodeUsed(trx, codeHash, now, tokens.family);
    return { tokens, brand: row.brand, row, userRecord };
  });
  if ('refused' in outcome) throw oauthErrors.invalidGrant(outcome.refused);
  const { tokens, brand, row, userRecord } = outcome;
  if (!userRecord) return tokenResponse(tokens, { brand });
  // OpenID Connect (OIDC Core §3.1.3.3): signed after the commit, so no key is made inside the code's transaction.
  const idToken = await issueIdToken(
    deps,
    {
      user: row.user,
      clientId: client.client_id,
      alg: client.id_token_signed_response_alg,
      scope: row.scope,
      authTime: row.auth_time,
      amr: row.amr,
      nonce: row.nonce,
      userRecord,
    },
    tokens.access_token,
  );
  return tokenResponse(tokens, { brand, id_token: idToken });
}

/** Null when PKCE is satisfied, else why not. A verifier without a stored challenge is refused (downgrade). */
function checkPkce(client: ClientRow, challenge: string | null, verifier: string | undefined): string | null {
  if (challenge === null) {
    if (client.kind === 'public') return 'A public client must use PKCE (code_challenge with method S256)';
    if (verifier) return 'code_verifier was sent but the authorization request had no code_challenge';
    return null;
  }
  if (!verifier) return 'code_verifier is required: the authorization request carried a code_challenge';
  if (!CODE_VERIFIER.test(verifier) || !safeEqual(sha256Base64Url(verifier), challenge))
    return 'code_verifier does not match the code_challenge';
  return null;
}
