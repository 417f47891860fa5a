// POST /oauth2/introspect (RFC 7662): a resource server of the brokerage asks whether a token is live and whose it
// is. Only a confidential client an operator allowed may ask (the answer names the token's user), and it may ask
// about any client's tokens: that is what a resource server needs. A token that is not live, for whatever reason
// (unknown, malformed, revoked, expired, rotated, its user or client deleted), is `{ active: false }` and nothing
// more (§2.2: never say which).
import type { Deps } from '../../platform/deps.js';
import { hashToken } from '../../lib/crypto.js';
import { authenticateClient, clientCredentials } from './client-auth.js';
import {
  findAccessTokenToIntrospect,
  findRefreshTokenToIntrospect,
  type IntrospectedAccessToken,
  type IntrospectedRefreshToken,
} from './introspection.repository.js';
import { oauthErrors } from './oauth-errors.js';
import type { IntrospectBody, IntrospectResponse } from './oauth.schemas.js';

const INACTIVE: IntrospectResponse = { active: false };

/** Decisions §22: a login that sent no scope has the `full` scope (today's behaviour). */
export const SCOPE_OF_UNSCOPED_LOGIN = 'full';

export async function introspectToken(
  deps: Deps,
  body: IntrospectBody,
  authorization: string | undefined,
): Promise<IntrospectResponse> {
  const client = await authenticateClient(
    deps.database,
    clientCredentials(authorization, { clientId: body.client_id, clientSecret: body.client_secret }),
  );
  // One message for all three: a caller learns nothing about which clients exist or what they may do.
  if (client.kind === 'public' || !client.may_introspect)
    throw oauthErrors.invalidClient('This client may not introspect tokens');
  const tokenHash = hashToken(body.token);
  const now = deps.clock.now();
  // The hint only orders the look-ups (RFC 7662 §2.1: a wrong hint must still find the token).
  if (body.token_type_hint === 'refresh_token') {
    const refresh = await findRefreshTokenToIntrospect(deps.database, tokenHash);
    if (refresh) return refreshTokenAnswer(refresh, now);
    const access = await findAccessTokenToIntrospect(deps.database, tokenHash);
    return access ? accessTokenAnswer(access, now) : INACTIVE;
  }
  const access = await findAccessTokenToIntrospect(deps.database, tokenHash);
  if (access) return accessTokenAnswer(access, now);
  const refresh = await findRefreshTokenToIntrospect(deps.database, tokenHash);
  return refresh ? refreshTokenAnswer(refresh, now) : INACTIVE;
}

/** Live as the bearer check has it (modules/auth/authenticate.ts), MFA gate included: what a resource server admits. */
function accessTokenAnswer(row: IntrospectedAccessToken, now: Date): IntrospectResponse {
  if (!loginIsLive(row, now)) return INACTIVE;
  if (row.mfa_enabled && !row.mfa_validated) return INACTIVE;
  return activeAnswer(row, 'Bearer');
}

/** Live as the refresh grant has it: never rotated (a rotated token's one lost-response retry is not a use). */
function refreshTokenAnswer(row: IntrospectedRefreshToken, now: Date): IntrospectResponse {
  if (!loginIsLive(row, now) || row.rotated_at !== null) return INACTIVE;
  return activeAnswer(row, 'refresh_token');
}

type CommonRow = IntrospectedAccessToken | IntrospectedRefreshToken;

function loginIsLive(row: CommonRow, now: Date): boolean {
  if (row.revoked_at !== null || row.client_deleted_at !== null) return false;
  if (row.user !== null && row.user_deleted_at !== null) return false;
  return row.token_expires_at > now && row.family_expires_at > now;
}

function activeAnswer(row: CommonRow, tokenType: string): IntrospectResponse {
  const expiresAt = Math.min(row.token_expires_at.getTime(), row.family_expires_at.getTime());
  return {
    active: true,
    scope: row.scope ?? SCOPE_OF_UNSCOPED_LOGIN,
    client_id: row.client_id,
    ...(row.user !== null ? { sub: row.user } : {}),
    exp: Math.floor(expiresAt / 1000),
    iat: Math.floor(row.issued_at.getTime() / 1000),
    token_type: tokenType,
    ...(row.brand !== null ? { brand: row.brand } : {}),
  };
}
