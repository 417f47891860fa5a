// OpenID Connect (docs/openid-connect.md): discovery, the signing keys, userinfo. Wiring only. The id_token itself
// comes from POST /oauth2/token (oauth.routes.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/schemas.js';
import { actorOf } from './authenticate.js';
import { openIdConfiguration } from './metadata.service.js';
import { JsonWebKeySet, OpenIdConfiguration, UserInfo } from './openid.schemas.js';
import { publishedJwks } from './signing-keys.js';
import { JWKS_MAX_AGE_SECONDS } from './token-policy.js';
import { userInfo } from './userinfo.service.js';

const TAGS = ['OAuth 2'];
const FORM_OR_JSON = ['application/json', 'application/x-www-form-urlencoded'];

export const openIdRoutes: FeatureRoutes = async (app, { deps }) => {
  // Any token may ask; userinfo.service.ts answers insufficient_scope (RFC 6750) to a login without openid, once the
  // request was read as any other (a POST body over the limit is a 413 first).
  declareRouteScopes(app, 'any');
  app.get(
    '/.well-known/openid-configuration',
    {
      config: { auth: 'none' },
      schema: {
        tags: TAGS,
        summary: 'OpenID Connect Discovery document',
        description:
          'The RFC 8414 metadata plus what an OpenID Provider states: userinfo and JWKS endpoints, scopes, claims, id_token algs. No token needed.',
        response: { 200: OpenIdConfiguration },
      },
    },
    async () => openIdConfiguration(deps.config),
  );

  app.get(
    '/oauth2/jwks',
    {
      config: { auth: 'none' },
      schema: {
        tags: TAGS,
        summary: 'The public keys that sign id_tokens (JWK Set, RFC 7517)',
        description:
          'Every key that signs now, that will sign after a rotation, or that signed id_tokens that have not expired yet. Public halves only. No token needed.',
        response: { 200: JsonWebKeySet },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
      return publishedJwks(deps);
    },
  );

  const userInfoSchema = {
    tags: TAGS,
    summary: 'The signed-in user’s claims (OpenID Connect UserInfo)',
    description:
      'For an access token whose authorization request had `openid` in its scope: `sub` and the claims of the scopes `email`, `profile`, `phone`. Any other token answers 403 with `WWW-Authenticate: Bearer error="insufficient_scope"` (RFC 6750).',
    response: { 200: UserInfo, ...errorResponses(...AUTHENTICATED_ERRORS) },
  };
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    return userInfo(deps, actorOf(request));
  };
  const USER_INFO = { auth: 'user', oauthErrors: true } as const;
  app.get('/oauth2/userinfo', { config: USER_INFO, schema: userInfoSchema }, answer);
  app.post('/oauth2/userinfo', { config: USER_INFO, schema: { ...userInfoSchema, consumes: FORM_OR_JSON } }, answer);
};
