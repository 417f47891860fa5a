// Refresh grant: rotate on every use. The old refresh token is marked rotated and a new pair is issued in the
// same family (so the family's MFA flag, brand binding and absolute expiry carry over), in one transaction. The
// common case (a live token, first use) is one statement; every other case takes the careful path, which locks the
// token and tells them apart. A rotated token that comes back is either a client retrying after a lost response or a stolen token: see
// `replayOfLostResponse`.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../platform/deps.js';
import { hashToken } from '../../lib/crypto.js';
import type { ClientRow } from './clients.repository.js';
import { oauthErrors } from './oauth-errors.js';
import type { TokenResponse } from './oauth.schemas.js';
import { REFRESH_REUSE_WINDOW_SECONDS } from './token-policy.js';
import { issueIdToken } from './id-token.js';
import { includesOpenid } from './openid.claims.js';
import {
  deletePair,
  findFamilyLogin,
  findRefreshTokenForUpdate,
  findRefreshTokenLogin,
  findUntouchedSuccessor,
  markRefreshTokenRotated,
  markReplayed,
  revokeFamily,
  setFamilyScope,
} from './tokens.repository.js';
import { narrowScope } from './scope-grant.js';
import { issueInFamily, rotateFreshRefreshToken, tokenResponse, type IssuedTokens } from './tokens.service.js';

export const REUSE_REVOKED_REASON = 'refresh_token_reuse';

type Outcome = { tokens: IssuedTokens } | { refused: string };
type RefreshRow = NonNullable<Awaited<ReturnType<typeof findRefreshTokenForUpdate>>>;

export async function refreshTokenGrant(
  deps: Deps,
  client: ClientRow,
  refreshToken: string,
  /** RFC 6749 §6: fewer scopes than the login has (absent: the same). */
  scope?: string,
): Promise<TokenResponse> {
  const tokenHash = hashToken(refreshToken);
  const narrowed = scope === undefined ? null : await narrowedScope(deps, client, tokenHash, scope);
  const tokens =
    (await rotateFreshRefreshToken(deps.database, deps.clock, tokenHash, client.id)) ??
    (await carefulRefresh(deps, client, tokenHash));
  if (narrowed !== null) {
    await setFamilyScope(deps.db, tokens.family, narrowed);
    tokens.scope = narrowed;
  }
  if (!includesOpenid(tokens.scope)) return tokenResponse(tokens);
  return tokenResponse(tokens, { id_token: await refreshedIdToken(deps, client, tokens) });
}

/**
 * The narrower scope a refresh asks for, checked before the token rotates (a refused scope leaves it usable).
 * The whole login narrows: its live access token too, and every later refresh (docs/oauth.md, Scopes). Null
 * when the token is not this client's: the rotation then refuses it as any other.
 */
async function narrowedScope(deps: Deps, client: ClientRow, tokenHash: Buffer, scope: string): Promise<string | null> {
  const login = await findRefreshTokenLogin(deps.db, tokenHash);
  if (!login || login.client !== client.id) return null;
  const decision = narrowScope(login.scope, scope);
  if ('invalid' in decision) throw oauthErrors.invalidScope(decision.invalid);
  return decision.granted;
}

/**
 * OIDC Core §12.2: the refresh of an OpenID Connect login answers a new id_token with the same iss, sub, aud and
 * auth_time, a new iat, and no nonce (the nonce belonged to the authorization request).
 */
async function refreshedIdToken(deps: Deps, client: ClientRow, tokens: IssuedTokens): Promise<string | undefined> {
  const login = await findFamilyLogin(deps.db, tokens.family);
  if (!login?.user) return undefined;
  return issueIdToken(
    deps,
    {
      user: login.user,
      clientId: client.client_id,
      alg: client.id_token_signed_response_alg,
      scope: login.scope,
      authTime: login.auth_time,
      amr: login.amr,
    },
    tokens.access_token,
  );
}

/**
 * Every refresh token that is not simply live and fresh: unknown, another client's, revoked, expired, or rotated
 * and presented again. Locks the token's row and tells those cases apart (a retry after a lost response gets a
 * pair; anything else is refused, and a reuse revokes the family).
 */
async function carefulRefresh(deps: Deps, client: ClientRow, tokenHash: Buffer): Promise<IssuedTokens> {
  // The transaction returns a refusal instead of throwing so that a reuse revocation is committed, not rolled back.
  const outcome = await deps.db.transaction().execute(async (trx): Promise<Outcome> => {
    const row = await findRefreshTokenForUpdate(trx, tokenHash);
    const now = deps.clock.now();
    if (!row || row.client !== client.id) return { refused: 'The refresh token is invalid' };
    if (row.revoked_at !== null) return { refused: 'The refresh token has been revoked' };
    if (row.family_expires_at <= now || row.token_expires_at <= now)
      return { refused: 'The refresh token has expired: log in again' };
    if (row.user !== null && row.user_deleted_at !== null) return { refused: 'The refresh token is invalid' };
    if (row.rotated_at !== null) {
      const replayed = await replayOfLostResponse(deps, trx, tokenHash, row, now);
      if (replayed) return { tokens: { ...replayed, scope: row.scope } };
      await revokeFamily(trx, row.family, now, REUSE_REVOKED_REASON);
      return { refused: 'The refresh token was used twice: every token of this login has been revoked' };
    }
    const tokens = await issueInFamily(trx, deps.clock, row.family, row.family_expires_at, true);
    await markRefreshTokenRotated(trx, tokenHash, now, hashToken(tokens.refresh_token!));
    return { tokens: { ...tokens, scope: row.scope } };
  });
  if ('refused' in outcome) throw oauthErrors.invalidGrant(outcome.refused);
  return outcome.tokens;
}

/**
 * A rotated token presented again by its own client (checked by the caller) within the reuse window, for the first
 * time, while the pair its rotation produced has never been used: the response carrying that pair was lost (a
 * crash, a dropped connection). The unused pair is retired and a fresh one issued. Anything else is reuse.
 */
async function replayOfLostResponse(
  deps: Deps,
  trx: Kysely<DB>,
  tokenHash: Buffer,
  row: RefreshRow,
  now: Date,
): Promise<IssuedTokens | null> {
  const sinceRotation = (now.getTime() - row.rotated_at!.getTime()) / 1000;
  if (sinceRotation > REFRESH_REUSE_WINDOW_SECONDS || row.replayed_at !== null || row.replaced_by === null) return null;
  const successor = await findUntouchedSuccessor(trx, row.replaced_by);
  if (!successor) return null;
  await deletePair(trx, successor);
  const tokens = await issueInFamily(trx, deps.clock, row.family, row.family_expires_at, true);
  await markReplayed(trx, tokenHash, now, hashToken(tokens.refresh_token!));
  return tokens;
}
