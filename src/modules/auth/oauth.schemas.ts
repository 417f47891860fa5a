// Wire shapes of /oauth2/token, /oauth2/revoke, /oauth2/introspect and the RFC 8414 metadata document.
import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../../platform/schemas.js';
import { UserRecord } from '../users/users.schemas.js';

const Field = (description: string) => Type.Optional(Type.String({ description }));

/** One body for every grant (JSON or form-encoded); which fields are required depends on grant_type. */
export const TokenRequestBody = Type.Object({
  grant_type: Type.String({ description: 'password, refresh_token, client_credentials or authorization_code' }),
  client_id: Field('Client id (or send it with HTTP Basic)'),
  client_secret: Field('Client secret of confidential clients (or HTTP Basic)'),
  username: Field('password grant: the email address (case-insensitive)'),
  password: Field('password grant'),
  refresh_token: Field('refresh_token grant'),
  code: Field('authorization_code grant: the code from the redirect'),
  redirect_uri: Field('authorization_code grant: the redirect_uri of the authorization request, exactly'),
  code_verifier: Field('authorization_code grant: the PKCE verifier (required when a code_challenge was sent)'),
  scope: Field(
    'password and client_credentials grants: the scopes asked for (default: all the client may have, `full` for most); refresh_token grant: fewer than the login has (docs/oauth.md, Scopes)',
  ),
});
export type TokenRequestBody = Static<typeof TokenRequestBody>;

export const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    refresh_token: Type.Optional(Type.String({ description: 'Not issued by the client_credentials grant' })),
    expires_in: Type.Integer({
      description: 'Seconds the access token lives: 2678400, or less when the login (one year) ends sooner',
    }),
    code: Type.Literal('OK'),
    token_type: Type.Literal('Bearer'),
    data: Type.Optional(UserRecord),
    brand: Type.Optional(Uuid),
    id_token: Type.Optional(
      Type.String({
        description:
          'OpenID Connect ID Token (a JWT, RS256 or ES256) when the authorization request had `openid` in its scope: the authorization_code grant, and the refresh_token grant of such a login',
      }),
    ),
  },
  {
    description:
      '`data` (the user) only for the password grant; `brand` only for the authorization_code grant; `id_token` only for an OpenID Connect login.',
  },
);
export type TokenResponse = Static<typeof TokenResponse>;

export const RevokeBody = Type.Object({
  token: Type.String({ description: 'An access or refresh token' }),
  token_type_hint: Field('access_token or refresh_token'),
  client_id: Field('Client id (or HTTP Basic)'),
  client_secret: Field('Client secret (or HTTP Basic)'),
});
export type RevokeBody = Static<typeof RevokeBody>;

export const RevokeResponse = Type.Object({ code: Type.Literal('OK') });

export const IntrospectBody = Type.Object({
  token: Type.String({ description: 'An access or refresh token, of any client' }),
  token_type_hint: Field('access_token or refresh_token: where to look first (a wrong hint still finds the token)'),
  client_id: Field('Client id of the introspecting client (or HTTP Basic)'),
  client_secret: Field('Its client secret (or HTTP Basic)'),
});
export type IntrospectBody = Static<typeof IntrospectBody>;

/** RFC 7662 §2.2. An inactive token is `{ "active": false }` and nothing else, whatever made it inactive. */
export const IntrospectResponse = Type.Object(
  {
    active: Type.Boolean(),
    scope: Type.Optional(
      Type.String({ description: 'The scope granted to the login (space-separated; docs/oauth.md, Scopes)' }),
    ),
    client_id: Type.Optional(Type.String({ description: 'The client the token was issued to' })),
    sub: Type.Optional(Type.String({ description: 'The user id; absent for a client_credentials token' })),
    exp: Type.Optional(Type.Integer({ description: 'When the token expires, seconds since the epoch' })),
    iat: Type.Optional(Type.Integer({ description: 'When the token was issued, seconds since the epoch' })),
    token_type: Type.Optional(
      Type.String({ description: '`Bearer` for an access token, `refresh_token` for a refresh token' }),
    ),
    brand: Type.Optional(Uuid),
  },
  { description: '`brand`: the brand a partner login is bound to, when it is bound to one.' },
);
export type IntrospectResponse = Static<typeof IntrospectResponse>;

export const AuthorizationServerMetadata = Type.Object({
  issuer: Type.String(),
  authorization_endpoint: Type.String(),
  token_endpoint: Type.String(),
  revocation_endpoint: Type.String(),
  grant_types_supported: Type.Array(Type.String()),
  response_types_supported: Type.Array(Type.String()),
  code_challenge_methods_supported: Type.Array(Type.String()),
  token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
  introspection_endpoint: Type.String(),
  introspection_endpoint_auth_methods_supported: Type.Array(Type.String()),
  scopes_supported: Type.Array(Type.String()),
});
export type AuthorizationServerMetadata = Static<typeof AuthorizationServerMetadata>;
