// POST /oauth2/token: check the grant type, authenticate the client, check the client may use the grant,
// check the grant's fields, then hand over to the grant (RFC 6749 §5.2 error order).
import type { Deps } from '../../platform/deps.js';
import { authorizationCodeGrant } from './authorization-code.grant.js';
import { assertGrantAllowed, authenticateClient, clientCredentials } from './client-auth.js';
import { clientCredentialsGrant } from './client-credentials.grant.js';
import type { ClientRow } from './clients.repository.js';
import { oauthErrors } from './oauth-errors.js';
import { grantScope } from './scope-grant.js';
import type { TokenRequestBody, TokenResponse } from './oauth.schemas.js';
import { passwordGrant } from './password.grant.js';
import { refreshTokenGrant } from './refresh-token.grant.js';

/** What the token endpoint needs from the HTTP request besides its body. */
export interface TokenRequestContext {
  authorization: string | undefined;
  ip: string;
}

const FIELDS_BY_GRANT = {
  password: ['username', 'password'],
  refresh_token: ['refresh_token'],
  client_credentials: [],
  authorization_code: ['code', 'redirect_uri'],
} as const satisfies Record<string, readonly (keyof TokenRequestBody)[]>;

type GrantType = keyof typeof FIELDS_BY_GRANT;
export const TOKEN_ENDPOINT_GRANTS = Object.keys(FIELDS_BY_GRANT) as GrantType[];

export async function exchangeToken(
  deps: Deps,
  body: TokenRequestBody,
  context: TokenRequestContext,
): Promise<TokenResponse> {
  const grantType = body.grant_type;
  if (!isGrantType(grantType)) throw oauthErrors.unsupportedGrantType(grantType);
  const credentials = clientCredentials(context.authorization, {
    clientId: body.client_id,
    clientSecret: body.client_secret,
  });
  const client = await authenticateClient(deps.database, credentials);
  assertGrantAllowed(client, grantType);
  const fields = requireFields(body, FIELDS_BY_GRANT[grantType]);

  switch (grantType) {
    case 'password':
      return passwordGrant(deps, client, fields.username!, fields.password!, context.ip, newLoginScope(client, body));
    case 'refresh_token':
      return refreshTokenGrant(deps, client, fields.refresh_token!, body.scope || undefined);
    case 'client_credentials':
      return clientCredentialsGrant(deps, client, newLoginScope(client, body));
    case 'authorization_code':
      return authorizationCodeGrant(deps, client, {
        code: fields.code!,
        redirectUri: fields.redirect_uri!,
        codeVerifier: body.code_verifier || undefined,
      });
  }
}

/** The scope of a login the token endpoint starts itself (decisions §22): invalid_scope before anything is written. */
function newLoginScope(client: ClientRow, body: TokenRequestBody): string {
  const decision = grantScope(client.allowed_scopes, body.scope);
  if ('invalid' in decision) throw oauthErrors.invalidScope(decision.invalid);
  return decision.granted;
}

function isGrantType(value: string): value is GrantType {
  return Object.hasOwn(FIELDS_BY_GRANT, value);
}

/** Every missing (or empty) field of the grant at once, as attributes of one invalid_request. */
function requireFields(body: TokenRequestBody, names: readonly (keyof TokenRequestBody)[]): TokenRequestBody {
  const missing = names.filter((name) => !body[name]);
  if (missing.length > 0) {
    throw oauthErrors.invalidRequest(
      `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required`,
      Object.fromEntries(missing.map((name) => [name, ['is required']])),
    );
  }
  return body;
}
