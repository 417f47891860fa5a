// SQL of matching listing events against saved searches (matching.service.ts; docs/saved-searches.md "Matching"):
// the candidate searches (findCandidateSearches), their confirmation by the engine's compiled WHERE, grouped by shape
// (matching.confirm.ts), and the stored match forms and shapes (matching.forms.ts).
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { unnestColumns } from '../../db/arrays.js';
import type { DB } from '../../db/types.js';

// Which saved searches might match these listings: found through the searches' own indexes, never by reading every
// search. A superset by construction (every search has an anchor — spec §2.5 — and each branch below follows one
// kind of anchor); matching.service.ts confirms each candidate with the search engine's compiled SQL.
//   - points:     the polygon's bounding box (saved_searches.area, GiST) overlaps a tiny box around the listing;
//   - boundaries: an outer ring's box (boundary_rings.box, GiST) does, and the search names that boundary;
//   - agents/offices: the search's anchor keys (GIN) overlap the keys the listing's own slots produce;
//   - brands:     the search names a brand whose subtree holds a live member linked to one of the listing's agents.
// Then two cheap checks (implied by the engine's own predicates): the price range and the listing statuses, from
// columns generated from the criteria; the points branch tests them inside its index.

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

/**
 * The candidate searches of these listings: a superset of the searches that match them (see above). The statement
 * joins the tables of the listings, users (agents, user_agents), brands (memberships, brands) and boundaries
 * (boundary_rings) modules: one statement of the match job's hot path, read through the searches' own indexes.
 */
export async function findCandidateSearches(db: Kysely<DB>, listingIds: readonly string[]): Promise<Candidate[]> {
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

/**
 * The parameter types PostgreSQL infers for a shape's text (`PREPARE` answers them in pg_prepared_statements), so
 * each value read from JSON text can be cast to exactly the type the engine's own statement would bind it as. The
 * three statements run on `db` one after the other: pass a transaction (or one connection), as a prepared
 * statement is its session's.
 */
export async function preparedParameterTypes(db: Kysely<DB>, text: string): Promise<string[]> {
  // A name of its own per call: a statement left behind by a transaction that failed in between cannot collide.
  const name = `gable_shape_${randomBytes(8).toString('hex')}`;
  // The text is the engine's compiled SQL: column names, operators and literals it wrote; every value is a `$n`.
  await sql.raw(`prepare ${name} as select 1 from listings as l where ${text}`).execute(db);
  try {
    const { rows } = await sql<{
      types: string[];
    }>`select parameter_types::text[] as types from pg_prepared_statements where name = ${name}`.execute(db);
    return rows[0]!.types;
  } finally {
    await sql.raw(`deallocate ${name}`).execute(db);
  }
}

/**
 * The candidates of one shape to confirm: the shape's text (the engine's compiled WHERE, each value a `$n`), the
 * types of its parameters (preparedParameterTypes), the positions that are "now", and one row per (search,
 * candidate listing): `searches[k]`, `listings[k]` and, per bind position, `columns[position][k]` as text.
 */
export interface ShapeCandidates {
  text: string;
  types: string[];
  nowParams: number[];
  searches: string[];
  listings: string[];
  columns: (string | null)[][];
}

/**
 * The confirmed (search, listing) pairs of these candidates, grouped by shape, as one query (none without shapes):
 * one `union all` branch per shape. A branch reads one row per (search, candidate listing) from arrays, one array
 * per bind position of the shape, typed as the engine's statement binds that position, so PostgreSQL parses each
 * value once, as it would a bind parameter (an array-typed position travels as the text of its array and is cast
 * per row). "now" (open houses) is `now`, the job's time, as a run now would bind it. The statement reads the
 * listings module's table (the engine's WHERE is about listings): the match job's hot path.
 */
export async function findConfirmedPairs(
  db: Kysely<DB>,
  shapes: readonly ShapeCandidates[],
  now: Date,
): Promise<Candidate[]> {
  const branches: RawBuilder<Candidate>[] = [];
  for (const { text, types, ...shape } of shapes) {
    const bound = types.flatMap((type, i) => (shape.nowParams.includes(i) ? [] : [i]));
    const rows = unnestColumns(
      [
        { name: 's', type: 'uuid', texts: shape.searches },
        { name: 'l', type: 'uuid', texts: shape.listings },
        ...bound.map((i) => ({ name: `p${i}`, type: types[i]!, texts: shape.columns[i]! })),
        // not `r`: the engine's SQL names its own sub-selects so (boundary rings)
      ],
      'candidate',
    );
    // `$n` → the row's value of position n-1, or the job's time for "now".
    const predicate = text.split(/\$(\d+)/).map((piece, i) => {
      if (i % 2 === 0) return sql.raw(piece);
      const position = Number(piece) - 1;
      return shape.nowParams.includes(position)
        ? sql`(${now.toISOString()}::${sql.raw(types[position]!)})`
        : rows.column(`p${position}`);
    });
    // Each candidate listing is read by primary key, then tested: `offset 0` keeps the predicate out of that lookup.
    // Without it the planner pushed the polygon (or agent) test into the scan and walked the listings index for
    // every search's whole area (~370 listings each on the bench) to keep one or two of them.
    branches.push(sql<Candidate>`select candidate.s as saved_search, l.id as listing
      from ${rows.from}
      cross join lateral (select * from listings where id = candidate.l offset 0) as l
      where ${sql.join(predicate, sql``)}`);
  }
  if (branches.length === 0) return [];
  return (await sql<Candidate>`${sql.join(branches, sql` union all `)}`.execute(db)).rows;
}

/** A shape to store: its id (derived from the text), its text and the positions of its "now" values. */
export interface ShapeWrite {
  id: string;
  text: string;
  nowParams: number[];
}

/** Stores shapes. Shapes are content-addressed and never change: an id already stored is left alone. */
export async function insertShapes(db: Kysely<DB>, rows: readonly ShapeWrite[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`insert into saved_search_shapes (id, text, now_params)
    select id, text, array(select jsonb_array_elements_text(now_params::jsonb)::int)
    from unnest(${rows.map((row) => row.id)}::uuid[], ${rows.map((row) => row.text)}::text[], ${rows.map((row) => JSON.stringify(row.nowParams))}::text[]) as s(id, text, now_params)
    on conflict (id) do nothing`.execute(db);
}

/** The stored shapes of these ids (an id not stored is missing from the answer). */
export async function findShapes(
  db: Kysely<DB>,
  ids: readonly string[],
): Promise<{ id: string; text: string; now_params: number[] }[]> {
  const { rows } = await sql<{
    id: string;
    text: string;
    now_params: number[];
  }>`select id, text, now_params from saved_search_shapes where id = any(${ids}::uuid[])`.execute(db);
  return rows;
}

/** A match form to store with its search (matching.forms.ts storeCompiledForms). */
export interface MatchFormWrite {
  search: string;
  /** The search's updated_at as PostgreSQL's text, as read: the form is stored only if the search is unchanged. */
  updatedAt: string;
  /** null: the search cannot run. */
  shape: string | null;
  /** The form's values as JSON text (null with a null shape). */
  values: string | null;
}

/**
 * Stores match forms of engine version `version`, each only if its search was not written since it was read and no
 * newer form was stored meanwhile. Rows another transaction holds (a write of the search, another job storing the
 * same form) are skipped: locked in id order and never waited for, so two jobs cannot deadlock here.
 */
export async function storeMatchForms(
  db: Kysely<DB>,
  forms: readonly MatchFormWrite[],
  version: string,
): Promise<void> {
  await sql`
    with locked as (
      select id from saved_searches where id = any(${forms.map((entry) => entry.search)}::uuid[]) order by id for no key update skip locked
    )
    update saved_searches s
    set match_shape = c.shape, match_values = c.match_values::jsonb, match_version = ${version}, match_for = s.updated_at
    from unnest(${forms.map((entry) => entry.search)}::uuid[], ${forms.map((entry) => entry.updatedAt)}::timestamptz[],
      ${forms.map((entry) => entry.shape)}::uuid[], ${forms.map((entry) => entry.values)}::text[]) as c(id, updated_at, shape, match_values)
    where s.id = c.id and s.id in (select id from locked) and s.updated_at = c.updated_at
      and (s.match_version is distinct from ${version} or s.match_for is distinct from s.updated_at)`.execute(db);
}
