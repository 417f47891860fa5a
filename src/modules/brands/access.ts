// Brand access, checked in ONE place (decisions §2). A user reaches a brand through a membership in it or in
// any ancestor; the ACL words of those memberships add up. A brand-bound token (partner flow) reaches only
// its brand's subtree.
import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { Actor } from '../auth/authenticate.js';
import { isUuid } from '../../lib/uuid.js';
import { ACL_WORDS } from './brands.words.js';

export { ACL_WORDS };
export type AclWord = (typeof ACL_WORDS)[number];
/** 'Member' = any membership, whatever its ACL. */
export type Permission = AclWord | 'Member';

export interface BrandReach {
  /** Ids from the brand up to the root, the brand first. */
  chain: string[];
  /** ACL words the user holds on the brand (through it or an ancestor); null = no membership in reach. */
  acl: Set<string> | null;
}

/** The reach columns as one row comes back from SQL (see reachOf). */
export interface ReachColumns {
  reach_chain: string[] | null;
  reach_acl: string[] | null;
  reach_member: boolean | null;
}

/**
 * A LATERAL subquery with the reach of `userId` on the brand `brand` (an SQL expression: a parameter, or a column
 * of a record being read, so a record and its access check come back in one round trip): `reach_chain` (ids from
 * the brand up to the root), `reach_acl` (ACL words of the user's memberships in that chain) and `reach_member`.
 * `userId` is a value, or an SQL expression too (the user of a bearer token read in the same statement).
 */
export function reachOf(
  brand: RawBuilder<unknown>,
  userId: string | null | RawBuilder<unknown>,
): RawBuilder<ReachColumns> {
  return sql<ReachColumns>`lateral (
    with recursive chain(id, parent, depth) as (
      select id, parent, 0 from brands where id = ${brand} and deleted_at is null
      union all
      select b.id, b.parent, c.depth + 1 from brands b join chain c on b.id = c.parent where b.deleted_at is null and c.depth < 32
    ), held as (
      select m.acl from chain c join memberships m on m.brand = c.id and m."user" = ${userId}::uuid and m.deleted_at is null
    )
    select (select array_agg(id::text order by depth) from chain) as reach_chain,
           (select array_agg(distinct w::text) from held cross join unnest(held.acl) as w) as reach_acl,
           exists (select 1 from held) as reach_member
  ) as reach`;
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
  const rows = await sql<ReachColumns>`select reach.* from ${reachOf(sql`${brandId}::uuid`, userId)}`.execute(db);
  return rows.rows[0] ? reachFrom(rows.rows[0]) : null;
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
  const rows = await sql<{ id: string }>`
    with recursive reach(id, depth) as (
      select m.brand, 0 from memberships m join brands b on b.id = m.brand
      where m."user" = ${userId} and m.deleted_at is null and b.deleted_at is null
      union
      select b.id, r.depth + 1 from brands b join reach r on b.parent = r.id where b.deleted_at is null and r.depth < 32
    )
    select distinct id from reach
  `.execute(db);
  const ids = rows.rows.map((r) => r.id);
  if (!within) return ids;
  const subtree = new Set(await subtreeIds(db, within));
  return ids.filter((id) => subtree.has(id));
}

/** The brand and all its live descendants. */
export async function subtreeIds(db: Kysely<DB>, brandId: string): Promise<string[]> {
  const rows = await subtreeQuery(sql`array[${brandId}]::uuid[]`).execute(db);
  return rows.rows.map((r) => r.id);
}

/**
 * The statement of subtreeIds for several brands (uuid[] expression): each live brand and its live descendants.
 * Also a subquery (listing search reads brand subtrees in SQL when it compiles a saved search for matching).
 */
export function subtreeQuery(brandIds: Expression<string[]>): RawBuilder<{ id: string }> {
  return sql<{ id: string }>`
    with recursive tree(id, depth) as (
      select id, 0 from brands where id = any(${brandIds}) and deleted_at is null
      union all
      select b.id, t.depth + 1 from brands b join tree t on b.parent = t.id where b.deleted_at is null and t.depth < 32
    )
    select id from tree`;
}
