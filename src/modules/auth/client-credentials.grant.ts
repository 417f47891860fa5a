// Client-credentials grant (first-party clients only): a token for the client itself, no user, no refresh token.
import type { Deps } from '../../platform/deps.js';
import type { ClientRow } from './clients.repository.js';
import type { TokenResponse } from './oauth.schemas.js';
import { issueNewFamily, tokenResponse } from './tokens.service.js';

export async function clientCredentialsGrant(deps: Deps, client: ClientRow, scope: string): Promise<TokenResponse> {
  const tokens = await issueNewFamily(deps.database, deps.clock, {
    user: null,
    client: client.id,
    brand: null,
    grantType: 'client_credentials',
    mfaValidated: false,
    withRefreshToken: false,
    scope,
  });
  return tokenResponse(tokens);
}
