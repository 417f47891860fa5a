// OpenID Connect scopes and the user claims each one releases (OIDC Core §5.4), in the id_token and at userinfo.
// The API scopes beside them are platform/api-scopes.ts's; they release no claim.
import { findUserClaims } from '../users/index.js';
import { scopeWords } from '../../platform/api-scopes.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** The prompt values the authorization pages honour (OIDC Core §3.1.2.1; src/web/prompt.ts). */
export const PROMPT_VALUES = ['none', 'login', 'consent', 'select_account'] as const;

export const CLAIMS_SUPPORTED = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'at_hash',
  'amr',
  'email',
  'email_verified',
  'name',
  'given_name',
  'family_name',
  'phone_number',
  'phone_number_verified',
] as const;

export function includesOpenid(scope: string | null | undefined): boolean {
  return scopeWords(scope).has('openid');
}

export type UserClaims = Record<string, string | boolean>;

/** The user record the claims are read from (users face `findUserClaims`). */
export type ClaimsUser = NonNullable<Awaited<ReturnType<typeof findUserClaims>>>;

/**
 * The claims of the user that the scope releases. A claim with no value is left out rather than sent empty
 * (OIDC Core §5.3.2). Null when the user is gone.
 */
export async function scopedUserClaims(
  db: Kysely<DB>,
  userId: string,
  scope: string | null,
): Promise<UserClaims | null> {
  const user = await findUserClaims(db, userId);
  return user ? claimsOf(user, scope) : null;
}

/** The claims of a user record already read (the code exchange reads it in its own transaction). */
export function claimsOf(user: ClaimsUser, scope: string | null): UserClaims {
  const words = scopeWords(scope);
  const claims: UserClaims = {};
  if (words.has('email')) {
    claims.email = user.email;
    claims.email_verified = user.email_confirmed;
  }
  if (words.has('profile')) {
    const name = `${user.first_name} ${user.last_name}`.trim();
    if (name) claims.name = name;
    if (user.first_name) claims.given_name = user.first_name;
    if (user.last_name) claims.family_name = user.last_name;
  }
  if (words.has('phone') && user.phone_number) {
    claims.phone_number = user.phone_number;
    claims.phone_number_verified = user.phone_confirmed;
  }
  return claims;
}
