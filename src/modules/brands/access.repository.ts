// SQL of brand access (access.ts decides; this file reads): a brand's ancestor chain with the ACL words a user holds
// there, the brands a user reaches, and a brand's subtree. Every function takes Kysely<DB> or a transaction.
import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.js';

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

/** The reach of `userId` on the brand `brandId` (a well-formed uuid): one row, or none. */
export async function findBrandReach(
  db: Kysely<DB>,
  userId: string,
  brandId: string,
): Promise<ReachColumns | undefined> {
  const rows = await sql<ReachColumns>`select reach.* from ${reachOf(sql`${brandId}::uuid`, userId)}`.execute(db);
  return rows.rows[0];
}

/** Ids of every live brand the user reaches (membership brands and all their descendants). */
export async function findReachableBrandIds(db: Kysely<DB>, userId: string): Promise<string[]> {
  const rows = await sql<{ id: string }>`
    with recursive reach(id, depth) as (
      select m.brand, 0 from memberships m join brands b on b.id = m.brand
      where m."user" = ${userId} and m.deleted_at is null and b.deleted_at is null
      union
      select b.id, r.depth + 1 from brands b join reach r on b.parent = r.id where b.deleted_at is null and r.depth < 32
    )
    select distinct id from reach
  `.execute(db);
  return rows.rows.map((r) => r.id);
}

/** The brand and all its live descendants. */
export async function findSubtreeIds(db: Kysely<DB>, brandId: string): Promise<string[]> {
  const rows = await subtreeQuery(sql`array[${brandId}]::uuid[]`).execute(db);
  return rows.rows.map((r) => r.id);
}

/**
 * The statement of findSubtreeIds for several brands (uuid[] expression): each live brand and its live descendants.
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
