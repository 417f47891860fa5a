// The id_token of an OpenID Connect login (OIDC Core §2, §3.1.3.6): a JWT signed with the client's alg by the
// key that signs now (signing-keys.ts). Issued by the code exchange, and again by a refresh of an openid family
// (§12.2: same iss, sub, aud and auth_time; a new iat; no nonce).
import { SignJWT } from 'jose';
import type { Deps } from '../../platform/deps.js';
import { hashToken } from '../../lib/crypto.js';
import { claimsOf, scopedUserClaims, type ClaimsUser } from './openid.claims.js';
import type { SigningAlg } from './auth.columns.js';
import { signingKey } from './signing-keys.js';
import { findIdTokenClient } from './clients.repository.js';
import { ID_TOKEN_SECONDS } from './token-policy.js';

export interface IdTokenSubject {
  /** users.id: the `sub`. */
  user: string;
  /** The public client_id: the `aud`. */
  clientId: string;
  alg: SigningAlg;
  /** The login's scope: which user claims go in. */
  scope: string | null;
  /** When the user signed in on the pages, if known. */
  authTime: Date | null;
  amr: string[] | null;
  /** The authorization request's nonce (the code exchange only). */
  nonce?: string | null;
  /** The user's record when the caller already read it (saves the claims query), else it is read here. */
  userRecord?: ClaimsUser;
}

/** `accessToken`: the one issued beside the id_token, hashed into at_hash; null when none is (response_type=id_token). */
export async function issueIdToken(deps: Deps, subject: IdTokenSubject, accessToken: string | null): Promise<string> {
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  const claims = subject.userRecord
    ? claimsOf(subject.userRecord, subject.scope)
    : ((await scopedUserClaims(deps.db, subject.user, subject.scope)) ?? {});
  const { kid, key } = await signingKey(deps, subject.alg);
  return new SignJWT({
    ...claims,
    ...(subject.authTime ? { auth_time: Math.floor(subject.authTime.getTime() / 1000) } : {}),
    ...(subject.nonce ? { nonce: subject.nonce } : {}),
    ...(accessToken !== null ? { at_hash: accessTokenHash(accessToken) } : {}),
    ...(subject.amr ? { amr: subject.amr } : {}),
  })
    .setProtectedHeader({ alg: subject.alg, kid, typ: 'JWT' })
    .setIssuer(deps.config.baseUrl)
    .setSubject(subject.user)
    .setAudience(subject.clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + ID_TOKEN_SECONDS)
    .sign(key);
}

/** OIDC Core §3.1.3.6: base64url of the left half of the SHA-256 (the hash of RS256 and ES256) of the token. */
export function accessTokenHash(accessToken: string): string {
  return hashToken(accessToken).subarray(0, 16).toString('base64url');
}

export type ImplicitIdTokenSubject = Omit<IdTokenSubject, 'clientId' | 'alg'> & {
  /** oauth_clients.id of the client the pages authorized. */
  client: string;
};

/**
 * The id_token of the implicit flow (OIDC Core §3.2.2.10), signed with the client's alg; null when the client was
 * deleted meanwhile. With `id_token token` its at_hash binds the access token issued with it.
 */
export async function issueImplicitIdToken(
  deps: Deps,
  subject: ImplicitIdTokenSubject,
  accessToken: string | null,
): Promise<string | null> {
  const client = await findIdTokenClient(deps.db, subject.client);
  if (!client) return null;
  const { client: _, ...rest } = subject;
  return issueIdToken(deps, { ...rest, clientId: client.client_id, alg: client.alg }, accessToken);
}
