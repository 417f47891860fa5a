// SQL of the hourly purge (tokens.purge.ts): expired tokens, codes and families, and stale attempt counters.
// Each function answers how many rows it deleted.
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** A family that expired, or was revoked, before `cutoff`. */
function endedBefore(cutoff: Date) {
  return (eb: ExpressionBuilder<DB, 'token_families'>) =>
    eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]);
}

export async function deleteExpiredAccessTokens(db: Kysely<DB>, cutoff: Date): Promise<bigint> {
  const result = await db.deleteFrom('access_tokens').where('expires_at', '<', cutoff).executeTakeFirst();
  return result.numDeletedRows;
}

export async function deleteExpiredRefreshTokens(db: Kysely<DB>, cutoff: Date): Promise<bigint> {
  const result = await db.deleteFrom('refresh_tokens').where('expires_at', '<', cutoff).executeTakeFirst();
  return result.numDeletedRows;
}

/**
 * The tokens of families ended before `cutoff`, as [access tokens, refresh tokens] deleted. A family ends before
 * its tokens when it is revoked: its tokens go with it (no foreign key cascades: the token tables' inserts are
 * the hot path, see the migration 2026-11-28T1500-token-hot-writes).
 */
export async function deleteTokensOfEndedFamilies(db: Kysely<DB>, cutoff: Date): Promise<[bigint, bigint]> {
  const endedFamilies = db.selectFrom('token_families').select('id').where(endedBefore(cutoff));
  const [access, refresh] = await Promise.all([
    db.deleteFrom('access_tokens').where('family', 'in', endedFamilies).executeTakeFirst(),
    db.deleteFrom('refresh_tokens').where('family', 'in', endedFamilies).executeTakeFirst(),
  ]);
  return [access.numDeletedRows, refresh.numDeletedRows];
}

export async function deleteExpiredAuthorizationCodes(db: Kysely<DB>, cutoff: Date): Promise<bigint> {
  const result = await db.deleteFrom('authorization_codes').where('expires_at', '<', cutoff).executeTakeFirst();
  return result.numDeletedRows;
}

/** Families ended before `cutoff` (after their tokens: deleteTokensOfEndedFamilies finds them by their family). */
export async function deleteEndedFamilies(db: Kysely<DB>, cutoff: Date): Promise<bigint> {
  const result = await db.deleteFrom('token_families').where(endedBefore(cutoff)).executeTakeFirst();
  return result.numDeletedRows;
}

/** Attempt counters untouched since `cutoff` and not blocking past it. */
export async function deleteStaleAttemptCounters(db: Kysely<DB>, cutoff: Date): Promise<void> {
  await db
    .deleteFrom('attempt_counters')
    .where('updated_at', '<', cutoff)
    .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', cutoff)]))
    .execute();
}
