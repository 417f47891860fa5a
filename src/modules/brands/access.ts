// Brand access, checked in ONE place (decisions §2). A user reaches a brand through a membership in it or in
// any ancestor; the ACL words of those memberships add up. A brand-bound token (partner flow) reaches only
// its brand's subtree.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { Actor } from '../auth/index.js';
import { isUuid } from '../../lib/uuid.js';
import { findBrandReach, findReachableBrandIds, findSubtreeIds, type ReachColumns } from './access.repository.js';
import { ACL_WORDS } from './brands.words.js';

export { ACL_WORDS };
// The reach subquery and the subtree statement, for statements of other modules that check access or read a
// subtree in the same round trip (contacts' records, saved-search matching): they are SQL, so they live in the
// repository; other modules take them from here.
export { reachOf, subtreeQuery, type ReachColumns } from './access.repository.js';
export type AclWord = (typeof ACL_WORDS)[number];
/** 'Member' = any membership, whatever its ACL. */
export type Permission = AclWord | 'Member';

export interface BrandReach {
  /** Ids from the brand up to the root, the brand first. */
  chain: string[];
  /** ACL words the user holds on the brand (through it or an ancestor); null = no membership in reach. */
  acl: Set<string> | null;
}

/** The reach of a row read with reachOf; null when the brand does not exist (or is deleted). */
export function reachFrom(row: ReachColumns): BrandReach | null {
  if (!row.reach_chain || row.reach_chain.length === 0) return null;
  return { chain: row.reach_chain, acl: row.reach_member ? new Set(row.reach_acl ?? []) : null };
}

/** The brand's ancestor chain and the user's ACL there; null when the brand does not exist (or is deleted). */
export async function brandReach(db: Kysely<DB>, userId: string, brandId: string): Promise<BrandReach | null> {
  // A malformed id names no brand; without this check it would reach SQL and fail there as a 500.
  if (!isUuid(brandId)) return null;
  const row = await findBrandReach(db, userId, brandId);
  return row ? reachFrom(row) : null;
}

export interface AccessCheck {
  /** 'forbidden' (403) for a `:brand` path; 'notFound' (404) for a record of that brand (existence not revealed). */
  denied?: 'forbidden' | 'notFound';
}

/**
 * Every brand-scoped service method starts here. Throws 403/404 unless the actor holds `permission` on
 * `brandId`, through a membership in it or an ancestor, within its token's brand binding.
 */
export async function requireAccess(
  db: Kysely<DB>,
  actor: Actor,
  brandId: string,
  permission: Permission,
  check: AccessCheck = {},
): Promise<void> {
  const reach = actor.userId ? await brandReach(db, actor.userId, brandId) : null;
  assertReach(actor, reach, permission, check);
}

/**
 * The one access decision, for a reach read by requireAccess or together with a record (reachOf). Throws
 * 403/404 unless the actor holds `permission` there, within its token's brand binding.
 */
export function assertReach(
  actor: Actor,
  reach: BrandReach | null,
  permission: Permission,
  check: AccessCheck = {},
): void {
  const deny = () =>
    check.denied === 'notFound'
      ? errors.notFound()
      : errors.forbidden(
          `You do not have ${permission === 'Member' ? 'access to' : `${permission} access on`} this brand`,
        );
  if (!actor.userId || !reach || !reach.acl) throw deny();
  if (actor.boundBrand && !reach.chain.includes(actor.boundBrand)) throw deny();
  if (permission !== 'Member' && !reach.acl.has(permission)) throw deny();
}

/** Ids of every live brand the user reaches (membership brands and all their descendants). */
export async function reachableBrandIds(
  db: Kysely<DB>,
  userId: string,
  within: string | null = null,
): Promise<string[]> {
  const ids = await findReachableBrandIds(db, userId);
  if (!within) return ids;
  const subtree = new Set(await subtreeIds(db, within));
  return ids.filter((id) => subtree.has(id));
}

/** The brand and all its live descendants. */
export async function subtreeIds(db: Kysely<DB>, brandId: string): Promise<string[]> {
  return findSubtreeIds(db, brandId);
}
