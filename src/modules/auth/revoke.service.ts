// POST /oauth2/revoke (RFC 7009): revoking either token of a pair ends the whole family (the login), because
// a refresh token alone would mint new access tokens and an access token alone is the less useful half.
import type { Deps } from '../../platform/deps.js';
import { AppError } from '../../errors.js';
import { hashToken } from '../../lib/crypto.js';
import { authenticateClient, clientCredentials } from './client-auth.js';
import type { RevokeBody } from './oauth.schemas.js';
import { findFamilyOfToken, revokeFamily } from './tokens.repository.js';

export const CLIENT_REVOKED_REASON = 'revoked_by_client';

export async function revokeToken(deps: Deps, body: RevokeBody, authorization: string | undefined): Promise<void> {
  const client = await authenticateClient(
    deps.database,
    clientCredentials(authorization, { clientId: body.client_id, clientSecret: body.client_secret }),
  );
  const tokenHash = hashToken(body.token);
  // The hint only orders the look-ups (§2.1: a wrong hint must still find the token).
  const order =
    body.token_type_hint === 'refresh_token'
      ? (['refresh_token', 'access_token'] as const)
      : (['access_token', 'refresh_token'] as const);
  for (const kind of order) {
    const found = await findFamilyOfToken(deps.db, tokenHash, kind);
    if (!found) continue;
    if (found.client !== client.id)
      throw new AppError(
        'BadRequest',
        'The token was issued to another client',
        undefined,
        undefined,
        'unauthorized_client',
      );
    await revokeFamily(deps.db, found.family, deps.clock.now(), CLIENT_REVOKED_REASON);
    return;
  }
  // An unknown (or long purged) token: 200 anyway (§2.2), the client's goal is reached.
}
