// The hourly purge of expired tokens, codes and families, and stale attempt counters (auth.tasks.ts).
import type { ExpressionBuilder } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../platform/deps.js';

/** Keep expired rows a while: refresh-reuse detection needs rotated tokens until their family ends. */
const KEEP_EXPIRED_SECONDS = 24 * 3600;

export async function purgeExpiredTokens(
  deps: Deps,
): Promise<{ accessTokens: number; refreshTokens: number; codes: number; families: number }> {
  const cutoff = new Date(deps.clock.now().getTime() - KEEP_EXPIRED_SECONDS * 1000);
  const accessTokens = await deps.db.deleteFrom('access_tokens').where('expires_at', '<', cutoff).executeTakeFirst();
  const refreshTokens = await deps.db.deleteFrom('refresh_tokens').where('expires_at', '<', cutoff).executeTakeFirst();
  // A family ends before its tokens when it is revoked: its tokens go with it (no foreign key cascades: the token
  // tables' inserts are the hot path, see the migration 2026-11-28T1500-token-hot-writes).
  const ended = (eb: ExpressionBuilder<DB, 'token_families'>) =>
    eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]);
  const endedFamilies = deps.db.selectFrom('token_families').select('id').where(ended);
  const orphans = await Promise.all([
    deps.db.deleteFrom('access_tokens').where('family', 'in', endedFamilies).executeTakeFirst(),
    deps.db.deleteFrom('refresh_tokens').where('family', 'in', endedFamilies).executeTakeFirst(),
  ]);
  const codes = await deps.db.deleteFrom('authorization_codes').where('expires_at', '<', cutoff).executeTakeFirst();
  const families = await deps.db.deleteFrom('token_families').where(ended).executeTakeFirst();
  await deps.db
    .deleteFrom('attempt_counters')
    .where('updated_at', '<', cutoff)
    .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', cutoff)]))
    .execute();
  return {
    accessTokens: Number(accessTokens.numDeletedRows + orphans[0].numDeletedRows),
    refreshTokens: Number(refreshTokens.numDeletedRows + orphans[1].numDeletedRows),
    codes: Number(codes.numDeletedRows),
    families: Number(families.numDeletedRows),
  };
}
