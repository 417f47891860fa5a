// RFC 8414 authorization server metadata, and the OpenID Connect Discovery document built on it: where the
// endpoints are and what they support.
import type { Config } from '../../config.js';
import { SIGNING_ALGS } from './auth.columns.js';
import type { AuthorizationServerMetadata } from './oauth.schemas.js';
import { ALL_SCOPES } from '../../platform/api-scopes.js';
import { CLAIMS_SUPPORTED, PROMPT_VALUES } from './openid.claims.js';
import type { OpenIdConfiguration } from './openid.schemas.js';
import { TOKEN_ENDPOINT_GRANTS } from './token-endpoint.service.js';

export function authorizationServerMetadata(config: Config): AuthorizationServerMetadata {
  const authMethods = ['client_secret_basic', 'client_secret_post', 'none'];
  return {
    issuer: config.baseUrl,
    authorization_endpoint: `${config.webUrl}/oauth2/auth`,
    token_endpoint: `${config.baseUrl}/oauth2/token`,
    revocation_endpoint: `${config.baseUrl}/oauth2/revoke`,
    // implicit is issued by the authorization endpoint, never by the token endpoint
    grant_types_supported: [...TOKEN_ENDPOINT_GRANTS, 'implicit'],
    // id_token and `id_token token`: OpenID Connect's implicit flow (OIDC Core §3.2), for clients with implicit
    response_types_supported: ['code', 'token', 'id_token', 'id_token token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    introspection_endpoint: `${config.baseUrl}/oauth2/introspect`,
    // Only confidential clients introspect: they prove their secret.
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    // The identity scopes and the API scopes (docs/oauth.md, Scopes).
    scopes_supported: [...ALL_SCOPES],
  };
}

/** OpenID Connect Discovery 1.0 §3 (docs/openid-connect.md): the issuer is BASE_URL, as in the id_tokens. */
export function openIdConfiguration(config: Config): OpenIdConfiguration {
  return {
    ...authorizationServerMetadata(config),
    userinfo_endpoint: `${config.baseUrl}/oauth2/userinfo`,
    jwks_uri: `${config.baseUrl}/oauth2/jwks`,
    // RP-Initiated Logout 1.0: on the pages' host, where the browser session's cookie lives
    end_session_endpoint: `${config.webUrl}/oauth2/logout`,
    response_modes_supported: ['query', 'fragment'],
    subject_types_supported: ['public'],
    // OpenID Connect Prompt Create §4.1 names this list; the values are Core's (docs/openid-connect.md)
    prompt_values_supported: [...PROMPT_VALUES],
    id_token_signing_alg_values_supported: [...SIGNING_ALGS],
    claims_supported: [...CLAIMS_SUPPORTED],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    // Its default is true (Discovery §3): said explicitly, since request_uri is not read.
    request_uri_parameter_supported: false,
  };
}
