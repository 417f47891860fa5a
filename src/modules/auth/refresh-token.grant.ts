// Refresh grant: rotate on every use. The old refresh token is marked rotated and a new pair is issued in the
// same family (so the family's MFA flag, brand binding and absolute expiry carry over), in one transaction.
import type { Deps } from '../../deps.js';
import { hashToken } from '../../lib/crypto.js';
import type { ClientRow } from './clients.repository.js';
import { oauthErrors } from './oauth-errors.js';
import type { TokenResponse } from './oauth.schemas.js';
import { REFRESH_REUSE_GRACE_SECONDS } from './token-policy.js';
import { findRefreshTokenForUpdate, markRefreshTokenRotated, revokeFamily } from './tokens.repository.js';
import { issueInFamily, type IssuedTokens } from './tokens.service.js';

export const REUSE_REVOKED_REASON = 'refresh_token_reuse';

type Outcome = { tokens: IssuedTokens } | { refused: string };

export async function refreshTokenGrant(deps: Deps, client: ClientRow, refreshToken: string): Promise<TokenResponse> {
  const tokenHash = hashToken(refreshToken);
  // The transaction returns a refusal instead of throwing so that a reuse revocation is committed, not rolled back.
  const outcome = await deps.db.transaction().execute(async (trx): Promise<Outcome> => {
    const row = await findRefreshTokenForUpdate(trx, tokenHash);
    const now = deps.clock.now();
    if (!row || row.client !== client.id) return { refused: 'The refresh token is invalid' };
    if (row.revoked_at !== null) return { refused: 'The refresh token has been revoked' };
    if (row.family_expires_at <= now || row.token_expires_at <= now) return { refused: 'The refresh token has expired: log in again' };
    if (row.user !== null && row.user_deleted_at !== null) return { refused: 'The refresh token is invalid' };
    if (row.rotated_at !== null) {
      const sinceRotation = (now.getTime() - row.rotated_at.getTime()) / 1000;
      // Within the grace a replay is most likely a client retrying after a lost response: refuse it but keep the
      // family, whose newer token the client may already hold. Later it looks like a stolen token: kill them all.
      if (sinceRotation <= REFRESH_REUSE_GRACE_SECONDS) return { refused: 'The refresh token has already been used' };
      await revokeFamily(trx, row.family, now, REUSE_REVOKED_REASON);
      return { refused: 'The refresh token was used twice: every token of this login has been revoked' };
    }
    await markRefreshTokenRotated(trx, tokenHash, now);
    return { tokens: await issueInFamily(trx, deps.clock, row.family, row.family_expires_at, true) };
  });
  if ('refused' in outcome) throw oauthErrors.invalidGrant(outcome.refused);
  const { tokens } = outcome;
  return { access_token: tokens.access_token, refresh_token: tokens.refresh_token!, expires_in: tokens.expires_in, code: 'OK', token_type: 'Bearer' };
}
