// RFC 8414 authorization server metadata: where the endpoints are and what they support.
import type { Config } from '../../config.js';
import type { AuthorizationServerMetadata } from './oauth.schemas.js';
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
    response_types_supported: ['code', 'token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
  };
}
