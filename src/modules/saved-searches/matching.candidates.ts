// Which saved searches might match these listings: found through the searches' own indexes, never by reading every
// search. A superset by construction (every search has an anchor — spec §2.5 — and each branch below follows one
// kind of anchor); matching.service.ts confirms each candidate with the search engine's compiled SQL.
//   - points:     the polygon's bounding box (saved_searches.area, GiST) overlaps a tiny box around the listing;
//   - boundaries: an outer ring's box (boundary_rings.box, GiST) does, and the search names that boundary;
//   - agents/offices: the search's anchor keys (GIN) overlap the keys the listing's own slots produce;
//   - brands:     the search names a brand whose subtree holds a live member linked to one of the listing's agents.
// Then two cheap checks (implied by the engine's own predicates): the price range and the listing statuses, from
// columns generated from the criteria; the points branch tests them inside its index.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/**
 * Half the side of the box around a listing's point. PostgreSQL's geometric operators compare with a 1e-6
 * tolerance, so a point that the engine counts as on a polygon's edge may sit that far outside its box: the
 * candidate box is wider than that, and the exact test comes later.
 */
const NEAR = 1e-5;

/** The brand tree is never deeper than this (brands/access.ts subtreeIds walks 32 levels). */
const MAX_BRAND_DEPTH = 64;

export interface Candidate {
  listing: string;
  saved_search: string;
}

export async function candidateSearches(db: Kysely<DB>, listingIds: readonly string[]): Promise<Candidate[]> {
  if (listingIds.length === 0) return [];
  // Implied by the engine's own predicates, so only a narrowing of the superset. Both tests read columns generated
  // from the criteria (migration 2026-11-28T0500): `price_range` is the inclusive [minimum, maximum] (unbounded
  // where unset) and `statuses` the listing statuses (null: no filter). A listing without a price passes only a
  // search without price bounds (the engine's `price >= $n` is null there), hence the whole line as its probe.
  const inStatuses = sql`(s.statuses is null or t.status = any(s.statuses))`;
  const inRange = sql`s.price_range @> t.price_probe and ${inStatuses}`;
  const { rows } = await sql<Candidate>`
    with recursive target as (
      select l.id, l.status, l.agent_muis,
        case when l.price is null then '(,)'::numrange else numrange(l.price, l.price, '[]') end as price_probe,
        case when l.location is null then null
          else box(point(l.location[0] - ${NEAR}::float8, l.location[1] - ${NEAR}::float8), point(l.location[0] + ${NEAR}::float8, l.location[1] + ${NEAR}::float8)) end as near,
        array_remove(array['la:' || l.list_agent_mui, 'sa:' || l.selling_agent_mui, 'lo:' || l.list_office_mls_id, 'so:' || l.selling_office_mls_id], null)
          || array(select 'a:' || m from unnest(l.agent_muis) as m)
          || array(select 'o:' || o from unnest(l.office_mls_ids) as o) as keys
      from listings l
      where l.id = any(${[...listingIds]}::uuid[]) and l.deleted_at is null
    ),
    member_brands(listing, brand, depth) as (
      select distinct t.id, b.id, 0
      from target t
      join agents a on a.mls_unique_id = any(t.agent_muis) and a.deleted_at is null
      join user_agents ua on ua.agent = a.id
      join memberships m on m."user" = ua."user" and m.deleted_at is null
      join brands b on b.id = m.brand and b.deleted_at is null
      union
      select mb.listing, p.id, mb.depth + 1
      from member_brands mb
      join brands b on b.id = mb.brand
      join brands p on p.id = b.parent and p.deleted_at is null
      where mb.depth < ${MAX_BRAND_DEPTH}
    ),
    -- The price range and statuses are tested in each branch: a last join reading every candidate search again by
    -- key cost a third of the statement at 100,000 searches. The box branch reads neither the search rows: its
    -- GiST index holds the box and the price range as keys and the id and statuses as INCLUDE columns (an
    -- index-only scan, ADR 0033); the other branches test them on the row their lookup read.
    candidates as (
      select t.id as listing, s.id as saved_search
        from target t join saved_searches s
          on s.area && t.near and s.price_range @> t.price_probe and s.deleted_at is null and s.area is not null
        where ${inStatuses}
      union
      select t.id, s.id
        from target t join saved_searches s on s.anchor_keys && t.keys and s.deleted_at is null
        where ${inRange}
      union
      select t.id, s.id
        from target t join boundary_rings r on r.box && t.near and r.is_hole = false
        join saved_search_boundaries x on x.boundary = r.boundary
        join saved_searches s on s.id = x.saved_search and s.deleted_at is null
        where ${inRange}
      union
      select t.id, s.id
        from member_brands mb join target t on t.id = mb.listing
        join saved_search_brands x on x.brand = mb.brand
        join saved_searches s on s.id = x.saved_search and s.deleted_at is null
        where ${inRange}
    )
    select listing, saved_search from candidates
  `.execute(db);
  return rows;
}
