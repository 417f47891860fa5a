// Resetting a user's MFA for them (issue 33 item 5): a user who lost the authenticator and the recovery codes
// asks an Admin of their brokerage, or the operator. The reset clears the secret and the recovery codes (the
// user signs in with the password alone and may set MFA up again) and leaves an audit event in the outbox,
// topic `Security`, with the change's transaction.
// It also ends every login of the user (docs/oauth.md "Recovery codes and resets"): a reset is made because the
// authenticator was lost or may be in other hands, so the token families validated with it are no longer trusted,
// and a family still waiting for its code would otherwise pass the MFA gate unasked once the flag is cleared.
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { recordEvents } from '../../events/outbox.js';
import { isUuid } from '../../lib/uuid.js';
import type { Actor } from '../auth/index.js';
import { requireAccess } from '../brands/index.js';
import { signOutEverywhere } from '../auth/index.js';
import { findLiveUserByRef, revokeOtherFamilies } from '../users/index.js';
import { clearMfa, deleteRecoveryCodes, findMemberBrands, isMemberInSubtree } from './mfa.repository.js';

/** token_families.revoked_reason of the logins a reset ends. */
export const MFA_RESET_REASON = 'mfa_reset';

/** Who reset it: an Admin through the API, or the operator through `gable admin user mfa-reset`. */
type ResetOrigin = { via: 'api'; by: string | null } | { via: 'cli'; by: null };

/**
 * An Admin of the brand (through it or an ancestor) resets the MFA of a member of the brand or a brand below it.
 * 403 without Admin on the brand; 404 for a user who is not in its roster (whether they exist is not revealed).
 */
export async function adminResetMfa(deps: Deps, actor: Actor, brandId: string, userId: string): Promise<void> {
  await requireAccess(deps.db, actor, brandId, 'Admin');
  if (!isUuid(userId) || !(await isMemberInSubtree(deps.db, userId, brandId))) throw errors.notFound('User');
  await resetMfa(deps, userId, [brandId], { via: 'api', by: actor.userId });
}

/** The operator's reset, by user id or email; the event goes to every brand the user is a member of. */
export async function operatorResetMfa(deps: Deps, userRef: string): Promise<{ id: string; email: string }> {
  const user = await findLiveUserByRef(deps.db, userRef.trim());
  if (!user) throw errors.notFound(`User ${userRef}`);
  await resetMfa(deps, user.id, await findMemberBrands(deps.db, user.id), { via: 'cli', by: null });
  return user;
}

async function resetMfa(deps: Deps, userId: string, brands: string[], origin: ResetOrigin): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await clearMfa(trx, userId, now);
    await deleteRecoveryCodes(trx, userId);
    // Every family, the resetting Admin's own when they reset themselves included: the user signs in again.
    const revoked = await revokeOtherFamilies(trx, userId, null, MFA_RESET_REASON, now);
    // Sessions of the authorization pages that passed the old authenticator could mint partner tokens there.
    await signOutEverywhere(trx, userId, now);
    await recordEvents(
      trx,
      brands.map((brand) => ({
        brand,
        topic: 'Security' as const,
        event: 'UserMfaReset' as const,
        subject: userId,
        payload: { user: userId, by: origin.by, via: origin.via, at: now.toISOString(), revoked_logins: revoked },
      })),
    );
  });
}
