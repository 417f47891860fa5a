// GET /oauth2/auth parameters (spec §4.1, §5; RFC 6749 §4.1.1, §4.2.1; RFC 7636). An unknown client or an
// unregistered redirect_uri can only be shown on a page: redirecting would make us an open redirector.
// Every other problem goes back to the client's redirect_uri as `error` (RFC 6749 §4.1.2.1, §4.2.2.1).
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Kysely } from 'kysely';
import { narrowed } from '../db/narrow.js';
import type { DB } from '../db/types.js';
import { isUuid } from '../lib/uuid.js';
import { findAuthorizingClient, grantScope, includesOpenid } from '../modules/auth/index.js';
import { parseInteraction, type Interaction } from './interaction.js';

/** RFC 6749's code and token, and OpenID Connect's implicit id_token responses (OIDC Core §3.2). */
export const RESPONSE_TYPES = ['code', 'token', 'id_token', 'id_token token'] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

const PendingSchema = Type.Object({
  /** Random id carried by the forms: a tab left open on an older request cannot approve a newer one. */
  id: Type.String(),
  /** oauth_clients.id */
  client: Type.String(),
  redirectUri: Type.String(),
  responseType: Type.Union(RESPONSE_TYPES.map((type) => Type.Literal(type))),
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
  /** OpenID Connect's login_hint: the email the sign-in form starts with. */
  loginHint: Type.Optional(Type.Union([Type.String(), Type.Null()])),
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
  | {
      kind: 'valid';
      client: AuthorizationClient;
      request: Omit<PendingAuthorization, 'id' | 'brand' | 'startedAt'>;
      /** prompt and max_age: acted on when the request arrives (prompt.ts), not stored with it. */
      interaction: Interaction;
    };

type Query = Record<string, string | string[] | undefined>;

/** base64url of a SHA-256 digest, the only challenge an S256 verifier can match. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** A nonce is the client's opaque value; this bounds what a session stores of it. */
const NONCE_MAX_LENGTH = 512;
/** An email address is at most 254 characters (RFC 5321); a hint longer than an address is refused. */
const LOGIN_HINT_MAX_LENGTH = 254;
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
  const sentResponseType = one('response_type');
  const responseType = sentResponseType === 'duplicate' ? null : normalResponseType(sentResponseType);
  // Errors go back the way the answer would have (RFC 6749 §4.2.2.1, OIDC Core §3.2.2.6): the fragment for the
  // implicit types, the query for code and for a type not understood.
  const mode = responseType ?? 'code';
  const fail = (error: string, description: string) => ({
    kind: 'redirect' as const,
    location: authorizationRedirect(redirectUri, mode, { error, error_description: description, state }),
  });

  if (sentResponseType === null || sentResponseType === 'duplicate')
    return fail('invalid_request', 'response_type is required, once: code, token, id_token or id_token token');
  if (responseType === null)
    return fail('unsupported_response_type', 'response_type must be code, token, id_token or id_token token');
  if (client.kind === 'first_party')
    return fail('unauthorized_client', 'First-party clients cannot use the authorization flow');
  if (!client.grants.includes(responseType === 'code' ? 'authorization_code' : 'implicit')) {
    return fail('unauthorized_client', `This client may not use response_type=${responseType}`);
  }
  const once = ['state', 'brandId', 'code_challenge', 'code_challenge_method', 'scope', 'nonce'];
  for (const name of [...once, 'prompt', 'max_age', 'login_hint']) {
    if (one(name) === 'duplicate') return fail('invalid_request', `${name} must not be repeated`);
  }

  const scope = one('scope') as string | null;
  if (scope !== null && !SCOPE.test(scope)) return fail('invalid_scope', 'scope is malformed');
  const scopeDecision = grantScope(client.allowed_scopes, scope);
  if ('invalid' in scopeDecision) return fail('invalid_scope', scopeDecision.invalid);
  const nonce = one('nonce') as string | null;
  if (nonce !== null && nonce.length > NONCE_MAX_LENGTH)
    return fail('invalid_request', `nonce must be at most ${NONCE_MAX_LENGTH} characters`);
  if (responseType.startsWith('id_token')) {
    // OIDC Core §3.2.2.1: an implicit id_token is for an OpenID request, and its nonce is what stops a replay.
    if (!includesOpenid(scope)) return fail('invalid_request', `response_type=${responseType} needs openid in scope`);
    if (nonce === null) return fail('invalid_request', `nonce is required with response_type=${responseType}`);
  }
  const interaction = parseInteraction(one('prompt') as string | null, one('max_age') as string | null);
  if ('invalid' in interaction) return fail('invalid_request', interaction.invalid);
  const loginHint = one('login_hint') as string | null;
  if (loginHint !== null && loginHint.length > LOGIN_HINT_MAX_LENGTH)
    return fail('invalid_request', `login_hint must be at most ${LOGIN_HINT_MAX_LENGTH} characters`);

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
      loginHint,
      // A malformed brandId cannot be one of the user's brands: the picker shows, as for any other. With
      // prompt=select_account the user chooses even when the client named a brand.
      requestedBrand:
        brandId !== null && isUuid(brandId) && !interaction.prompt.has('select_account') ? brandId.toLowerCase() : null,
    },
    interaction,
  };
}

/** The response type sent, in the order RESPONSE_TYPES names it (OAuth 2.0 Multiple Response Types: order is free). */
function normalResponseType(sent: string | null): ResponseType | null {
  if (sent === null) return null;
  const words = sent.split(' ').sort().join(' ');
  return RESPONSE_TYPES.find((type) => type.split(' ').sort().join(' ') === words) ?? null;
}

function page(title: string, message: string): ParsedAuthorization {
  return { kind: 'page', title, message };
}

/**
 * The redirect back to the client: parameters in the query for response_type=code (keeping the query the
 * redirect URI already has), in the fragment for the implicit types (token, id_token). Null values are left out.
 */
export function authorizationRedirect(
  redirectUri: string,
  responseType: ResponseType,
  params: Record<string, string | number | null>,
): string {
  const encoded = new URLSearchParams(
    Object.entries(params).flatMap(([name, value]): [string, string][] =>
      value === null ? [] : [[name, String(value)]],
    ),
  ).toString();
  if (responseType !== 'code') return `${redirectUri}#${encoded}`;
  // Appended as text, so the registered query keeps its exact bytes (RFC 6749 §3.1.2 "MUST retain").
  const separator = redirectUri.includes('?') ? (/[?&]$/.test(redirectUri) ? '' : '&') : '?';
  return `${redirectUri}${separator}${encoded}`;
}
