// The OAuth 2 token server: token, revocation, introspection and metadata endpoints. Wiring only. Errors here also carry the
// RFC 6749 `error`/`error_description` (config.oauthErrors); bodies may be JSON or form-encoded.
import type { FeatureRoutes } from '../../platform/feature.js';
import { errorResponses } from '../../platform/schemas.js';
import { introspectToken } from './introspect.service.js';
import { authorizationServerMetadata } from './metadata.service.js';
import {
  AuthorizationServerMetadata,
  IntrospectBody,
  IntrospectResponse,
  RevokeBody,
  RevokeResponse,
  TokenRequestBody,
  TokenResponse,
} from './oauth.schemas.js';
import { openIdRoutes } from './openid.routes.js';
import { revokeToken } from './revoke.service.js';
import { exchangeToken } from './token-endpoint.service.js';

const TAGS = ['OAuth 2'];
const OAUTH_ENDPOINT = { auth: 'none', oauthErrors: true } as const;
/** RFC 6749 clients send forms; our own apps send JSON. */
const FORM_OR_JSON = ['application/json', 'application/x-www-form-urlencoded'];

export const oauthRoutes: FeatureRoutes = async (app, { deps }) => {
  app.post(
    '/oauth2/token',
    {
      config: OAUTH_ENDPOINT,
      schema: {
        tags: TAGS,
        summary: 'Issue tokens (password, refresh_token, client_credentials, authorization_code grants)',
        description:
          'JSON or application/x-www-form-urlencoded. Client credentials in the body or with HTTP Basic. Errors carry RFC 6749 `error`: ' +
          'invalid_request, invalid_client (401), invalid_grant, unauthorized_client, unsupported_grant_type; 429 after repeated wrong passwords.',
        consumes: FORM_OR_JSON,
        body: TokenRequestBody,
        response: { 200: TokenResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      // RFC 6749 §5.1: token responses must not be cached.
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return exchangeToken(deps, request.body, { authorization: request.headers.authorization, ip: request.ip });
    },
  );

  app.post(
    '/oauth2/revoke',
    {
      config: OAUTH_ENDPOINT,
      schema: {
        tags: TAGS,
        summary: 'Revoke a token (RFC 7009)',
        description:
          'Revoking an access or a refresh token ends its whole login (token family). An unknown token also answers 200.',
        consumes: FORM_OR_JSON,
        body: RevokeBody,
        response: { 200: RevokeResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      await revokeToken(deps, request.body, request.headers.authorization);
      return { code: 'OK' as const };
    },
  );

  app.post(
    '/oauth2/introspect',
    {
      config: OAUTH_ENDPOINT,
      schema: {
        tags: TAGS,
        summary: 'Introspect a token (RFC 7662)',
        description:
          'For confidential clients an operator allowed (`gable admin client create --introspect`), in the body or with HTTP Basic; ' +
          'any other client gets 401 invalid_client. Answers about any client’s access or refresh token; ' +
          'a token that is not live, for whatever reason, is `{"active": false}` and nothing more.',
        consumes: FORM_OR_JSON,
        body: IntrospectBody,
        response: { 200: IntrospectResponse, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      // The answer describes a live credential: no cache may keep it (RFC 7662 §4).
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return introspectToken(deps, request.body, request.headers.authorization);
    },
  );

  app.get(
    '/.well-known/oauth-authorization-server',
    {
      config: { auth: 'none' },
      schema: {
        tags: TAGS,
        summary: 'Authorization server metadata (RFC 8414)',
        description:
          'Endpoints, grant types, PKCE methods and client authentication methods of this server. No token needed.',
        response: { 200: AuthorizationServerMetadata },
      },
    },
    async () => authorizationServerMetadata(deps.config),
  );

  // OpenID Connect's discovery, JWKS and userinfo sit beside the RFC 8414 document, in this feature's routes.
  await openIdRoutes(app, { deps });
};
