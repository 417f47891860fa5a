// Wire shapes of the OpenID Connect endpoints: discovery, JWKS, userinfo (docs/openid-connect.md).
import { Type, type Static } from '@sinclair/typebox';
import { AuthorizationServerMetadata } from './oauth.schemas.js';

const Strings = Type.Array(Type.String());

/** OpenID Connect Discovery 1.0 §3: the RFC 8414 document plus what an OpenID Provider states. */
export const OpenIdConfiguration = Type.Composite([
  AuthorizationServerMetadata,
  Type.Object({
    userinfo_endpoint: Type.String(),
    jwks_uri: Type.String(),
    end_session_endpoint: Type.String(),
    scopes_supported: Strings,
    response_modes_supported: Strings,
    subject_types_supported: Strings,
    prompt_values_supported: Strings,
    id_token_signing_alg_values_supported: Strings,
    claims_supported: Strings,
    claims_parameter_supported: Type.Boolean(),
    request_parameter_supported: Type.Boolean(),
    request_uri_parameter_supported: Type.Boolean(),
  }),
]);
export type OpenIdConfiguration = Static<typeof OpenIdConfiguration>;

/** A public JWK (RFC 7517, 7518 §6): RSA (`n`, `e`) or EC (`crv`, `x`, `y`). Private members are never listed. */
export const PublicJwk = Type.Object({
  kty: Type.String({ description: 'RSA or EC' }),
  kid: Type.String({ description: 'The key id: its RFC 7638 thumbprint, named in the id_token header' }),
  alg: Type.String({ description: 'RS256 or ES256' }),
  use: Type.Literal('sig'),
  n: Type.Optional(Type.String()),
  e: Type.Optional(Type.String()),
  crv: Type.Optional(Type.String()),
  x: Type.Optional(Type.String()),
  y: Type.Optional(Type.String()),
});

export const JsonWebKeySet = Type.Object({ keys: Type.Array(PublicJwk) });
export type JsonWebKeySet = Static<typeof JsonWebKeySet>;

export const UserInfo = Type.Object(
  {
    sub: Type.String({ description: 'The user id, as the id_token’s `sub`' }),
    email: Type.Optional(Type.String({ description: 'scope email' })),
    email_verified: Type.Optional(Type.Boolean({ description: 'scope email' })),
    name: Type.Optional(Type.String({ description: 'scope profile' })),
    given_name: Type.Optional(Type.String({ description: 'scope profile' })),
    family_name: Type.Optional(Type.String({ description: 'scope profile' })),
    phone_number: Type.Optional(Type.String({ description: 'scope phone, when the user has one' })),
    phone_number_verified: Type.Optional(Type.Boolean({ description: 'scope phone, when the user has one' })),
  },
  { description: 'The claims the login’s scope releases (OIDC Core §5.4); a claim without a value is left out.' },
);
export type UserInfo = Static<typeof UserInfo>;
