// The hourly purge of expired tokens, codes and families, and stale attempt counters (auth.tasks.ts).
import type { Deps } from '../../platform/deps.js';
import * as repo from './purge.repository.js';
import { dropRetiredSigningKeys } from './signing-keys.js';

/** Keep expired rows a while: refresh-reuse detection needs rotated tokens until their family ends. */
const KEEP_EXPIRED_SECONDS = 24 * 3600;

export async function purgeExpiredTokens(
  deps: Deps,
): Promise<{ accessTokens: number; refreshTokens: number; codes: number; families: number }> {
  const cutoff = new Date(deps.clock.now().getTime() - KEEP_EXPIRED_SECONDS * 1000);
  const accessTokens = await repo.deleteExpiredAccessTokens(deps.db, cutoff);
  const refreshTokens = await repo.deleteExpiredRefreshTokens(deps.db, cutoff);
  // A family ends before its tokens when it is revoked: its tokens go with it (purge.repository.ts).
  const orphans = await repo.deleteTokensOfEndedFamilies(deps.db, cutoff);
  const codes = await repo.deleteExpiredAuthorizationCodes(deps.db, cutoff);
  const families = await repo.deleteEndedFamilies(deps.db, cutoff);
  await repo.deleteStaleAttemptCounters(deps.db, cutoff);
  // Signing keys whose id_tokens have all expired leave the JWKS by their timestamps; their rows go here.
  await dropRetiredSigningKeys(deps);
  return {
    accessTokens: Number(accessTokens + orphans[0]),
    refreshTokens: Number(refreshTokens + orphans[1]),
    codes: Number(codes),
    families: Number(families),
  };
}
