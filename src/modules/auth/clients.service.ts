// OAuth clients. Secrets are 192-bit random strings, so a fast SHA-256 hash is as safe as a slow one here
// (nothing to brute-force) and keeps client authentication off the hot path of every refresh grant.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { ClientKind, SigningAlg } from './auth.columns.js';
import { insertClient } from './clients.repository.js';
import { hashToken, randomToken, safeEqual } from '../../lib/crypto.js';

/** Which grants each kind of client may use (decisions §3). */
export const GRANTS_BY_KIND: Record<ClientKind, readonly string[]> = {
  first_party: ['password', 'refresh_token', 'client_credentials'],
  partner: ['authorization_code', 'implicit', 'refresh_token'],
  public: ['authorization_code', 'implicit', 'refresh_token'],
};

export interface NewClient {
  name: string;
  kind: ClientKind;
  redirectUris?: string[];
  /** Fixed client_id (seeding); default a random one. */
  clientId?: string;
  /** Fixed secret (seeding); default a random one. Ignored for public clients. */
  clientSecret?: string;
  /** The fixed secret is weak (an imported partner's published one): recorded on the client. */
  weakSecret?: boolean;
  /** The alg of the client's id_tokens (OpenID Connect Dynamic Client Registration's name); default RS256. */
  idTokenSignedResponseAlg?: SigningAlg;
  /** Where RP-initiated logout may send the browser back (OpenID Connect RP-Initiated Logout §3.1); exact match. */
  postLogoutRedirectUris?: string[];
  /** May call POST /oauth2/introspect (RFC 7662); confidential clients only. Default false. */
  mayIntrospect?: boolean;
  /** The API scopes the client may ask for (decisions §22); absent: every scope. */
  allowedScopes?: string[];
}

export interface CreatedClient {
  id: string;
  client_id: string;
  /** Shown once; null for public clients. */
  client_secret: string | null;
  name: string;
  kind: ClientKind;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  grants: string[];
  weak_secret: boolean;
  id_token_signed_response_alg: string;
  may_introspect: boolean;
  allowed_scopes: string[] | null;
}

export function hashClientSecret(secret: string): string {
  return hashToken(secret).toString('hex');
}

export function clientSecretMatches(secretHash: string | null, secret: string): boolean {
  return secretHash !== null && safeEqual(secretHash, hashClientSecret(secret));
}

export async function createOAuthClient(db: Kysely<DB>, client: NewClient): Promise<CreatedClient> {
  for (const uri of [...(client.redirectUris ?? []), ...(client.postLogoutRedirectUris ?? [])]) assertRedirectUri(uri);
  // Introspection tells who a token's user is: only a client that proves a secret may ask.
  if (client.mayIntrospect && client.kind === 'public')
    throw new Error('A public client cannot introspect tokens: it has no secret to authenticate with');
  const secret = client.kind === 'public' ? null : (client.clientSecret ?? randomToken(24));
  const row = await insertClient(db, {
    client_id: client.clientId ?? `${client.kind.replace('_', '-')}-${randomToken(9)}`,
    secret_hash: secret ? hashClientSecret(secret) : null,
    name: client.name,
    kind: client.kind,
    redirect_uris: client.redirectUris ?? [],
    post_logout_redirect_uris: client.postLogoutRedirectUris ?? [],
    grants: [...GRANTS_BY_KIND[client.kind]],
    weak_secret: secret !== null && client.weakSecret === true,
    id_token_signed_response_alg: client.idTokenSignedResponseAlg ?? 'RS256',
    may_introspect: client.mayIntrospect === true,
    allowed_scopes: client.allowedScopes ?? null,
    deleted_at: null,
  });
  return { ...row, kind: client.kind, client_secret: secret };
}

/**
 * Redirect URIs are absolute and without fragment (RFC 6749 §3.1.2): https, http on a loopback host, or a
 * native app's private-use scheme in reverse-domain form such as `com.example.app:` (RFC 8252 §7.1).
 */
export function assertRedirectUri(uri: string): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new Error(`Redirect URI ${uri} is not an absolute URL`);
  }
  if (url.hash) throw new Error(`Redirect URI ${uri} must not have a fragment`);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  const privateUseScheme = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback) || privateUseScheme) return;
  throw new Error(`Redirect URI ${uri} must use https (http only on loopback hosts, or a reverse-domain app scheme)`);
}
