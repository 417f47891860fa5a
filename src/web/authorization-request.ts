// GET /oauth2/auth parameters (spec §4.1, §5; RFC 6749 §4.1.1, §4.2.1; RFC 7636). An unknown client or an
// unregistered redirect_uri can only be shown on a page: redirecting would make us an open redirector.
// Every other problem goes back to the client's redirect_uri as `error` (RFC 6749 §4.1.2.1, §4.2.2.1).
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Kysely } from 'kysely';
import { narrowed } from '../db/narrow.js';
import type { DB } from '../db/types.js';
import { isUuid } from '../lib/uuid.js';
import { findAuthorizingClient, grantScope } from '../modules/auth/index.js';

const PendingSchema = Type.Object({
  /** Random id carried by the forms: a tab left open on an older request cannot approve a newer one. */
  id: Type.String(),
  /** oauth_clients.id */
  client: Type.String(),
  redirectUri: Type.String(),
  responseType: Type.Union([Type.Literal('code'), Type.Literal('token')]),
  state: Type.Union([Type.String(), Type.Null()]),
  codeChallenge: Type.Union([Type.String(), Type.Null()]),
  /** `brandId` as the client sent it (a uuid), not yet checked against the user's brands. */
  requestedBrand: Type.Union([Type.String(), Type.Null()]),
  /** The brand the user picked, or the requested one once it is known to be theirs. */
  brand: Type.Union([Type.String(), Type.Null()]),
  startedAt: Type.Number(),
  /** The request's scope as sent; with `openid` the code's exchange answers an id_token (absent: stored before). */
  scope: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** OpenID Connect's nonce, echoed in the id_token. */
  nonce: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

export type PendingAuthorization = Static<typeof PendingSchema>;

export function parsePending(value: unknown): PendingAuthorization | null {
  return Value.Check(PendingSchema, value) ? value : null;
}

export interface AuthorizationClient {
  id: string;
  client_id: string;
  name: string;
  kind: 'first_party' | 'partner' | 'public';
  redirect_uris: string[];
  grants: string[];
  /** The API scopes an operator lets the client ask for; null: any (decisions §22). */
  allowed_scopes: string[] | null;
}

export type ParsedAuthorization =
  /** Shown on an error page (400); never redirected. */
  | { kind: 'page'; title: string; message: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'valid'; client: AuthorizationClient; request: Omit<PendingAuthorization, 'id' | 'brand' | 'startedAt'> };

type Query = Record<string, string | string[] | undefined>;

/** base64url of a SHA-256 digest, the only challenge an S256 verifier can match. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** A nonce is the client's opaque value; this bounds what a session stores of it. */
const NONCE_MAX_LENGTH = 512;
/** RFC 6749 §3.3 scope-token characters, space separated. */
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/;

export async function parseAuthorizationRequest(db: Kysely<DB>, query: Query): Promise<ParsedAuthorization> {
  const one = (name: string): string | null | 'duplicate' => {
    const value = query[name];
    if (Array.isArray(value)) return 'duplicate';
    return value === undefined || value === '' ? null : value;
  };

  const clientId = one('client_id');
  if (clientId === null || clientId === 'duplicate') {
    return page(
      'Missing application',
      'The application that sent you here did not identify itself (client_id is missing or repeated).',
    );
  }
  const client = narrowed<AuthorizationClient | undefined>(await findAuthorizingClient(db, clientId));
  if (!client)
    return page(
      'Unknown application',
      'The application that sent you here is not registered, so you cannot sign in to it.',
    );
  const redirectUri = one('redirect_uri');
  if (redirectUri === null || redirectUri === 'duplicate') {
    return page(
      'Invalid request',
      `${client.name} did not say where to send you back (redirect_uri is missing or repeated).`,
    );
  }
  if (!client.redirect_uris.includes(redirectUri)) {
    return page(
      'Invalid request',
      `The address ${client.name} asked to send you back to is not registered for it, so you were not sent there.`,
    );
  }

  const stateValue = one('state');
  const state = stateValue === 'duplicate' ? null : stateValue;
  const responseType = one('response_type');
  const mode = responseType === 'token' ? 'token' : 'code';
  const fail = (error: string, description: string) => ({
    kind: 'redirect' as const,
    location: authorizationRedirect(redirectUri, mode, { error, error_description: description, state }),
  });

  if (responseType === null || responseType === 'duplicate')
    return fail('invalid_request', 'response_type is required, once: code or token');
  if (responseType !== 'code' && responseType !== 'token')
    return fail('unsupported_response_type', 'response_type must be code or token');
  if (client.kind === 'first_party')
    return fail('unauthorized_client', 'First-party clients cannot use the authorization flow');
  if (!client.grants.includes(responseType === 'code' ? 'authorization_code' : 'implicit')) {
    return fail('unauthorized_client', `This client may not use response_type=${responseType}`);
  }
  for (const name of ['state', 'brandId', 'code_challenge', 'code_challenge_method', 'scope', 'nonce']) {
    if (one(name) === 'duplicate') return fail('invalid_request', `${name} must not be repeated`);
  }

  const scope = one('scope') as string | null;
  if (scope !== null && !SCOPE.test(scope)) return fail('invalid_scope', 'scope is malformed');
  const scopeDecision = grantScope(client.allowed_scopes, scope);
  if ('invalid' in scopeDecision) return fail('invalid_scope', scopeDecision.invalid);
  const nonce = one('nonce') as string | null;
  if (nonce !== null && nonce.length > NONCE_MAX_LENGTH)
    return fail('invalid_request', `nonce must be at most ${NONCE_MAX_LENGTH} characters`);

  let codeChallenge: string | null = null;
  if (responseType === 'code') {
    const challenge = one('code_challenge') as string | null;
    const method = one('code_challenge_method') as string | null;
    if (challenge === null && method !== null)
      return fail('invalid_request', 'code_challenge_method was sent without code_challenge');
    if (challenge !== null) {
      // Without a method RFC 7636 means "plain", which this server does not accept.
      if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
      if (!S256_CHALLENGE.test(challenge))
        return fail(
          'invalid_request',
          'code_challenge must be the base64url SHA-256 of the code verifier (43 characters)',
        );
      codeChallenge = challenge;
    } else if (client.kind === 'public') {
      return fail(
        'invalid_request',
        'PKCE is required for public clients: send code_challenge and code_challenge_method=S256',
      );
    }
  }

  const brandId = one('brandId') as string | null;
  return {
    kind: 'valid',
    client,
    request: {
      client: client.id,
      redirectUri,
      responseType,
      state,
      codeChallenge,
      scope,
      nonce,
      // A malformed brandId cannot be one of the user's brands: the picker shows, as for any other.
      requestedBrand: brandId !== null && isUuid(brandId) ? brandId.toLowerCase() : null,
    },
  };
}

function page(title: string, message: string): ParsedAuthorization {
  return { kind: 'page', title, message };
}

/**
 * The redirect back to the client: parameters in the query for response_type=code (keeping the query the
 * redirect URI already has), in the fragment for response_type=token. Null values are left out.
 */
export function authorizationRedirect(
  redirectUri: string,
  responseType: 'code' | 'token',
  params: Record<string, string | number | null>,
): string {
  const encoded = new URLSearchParams(
    Object.entries(params).flatMap(([name, value]): [string, string][] =>
      value === null ? [] : [[name, String(value)]],
    ),
  ).toString();
  if (responseType === 'token') return `${redirectUri}#${encoded}`;
  // Appended as text, so the registered query keeps its exact bytes (RFC 6749 §3.1.2 "MUST retain").
  const separator = redirectUri.includes('?') ? (/[?&]$/.test(redirectUri) ? '' : '&') : '?';
  return `${redirectUri}${separator}${encoded}`;
}
