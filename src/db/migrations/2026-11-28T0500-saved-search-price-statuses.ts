// Matching candidates without reading the search rows (issue 12, docs/saved-searches.md "Matching", ADR 0033).
// matching.candidates.ts narrowed each index branch's candidates by the search's price range and listing statuses,
// read from `criteria` on the search row: at 100,000 searches over 1,000,000 listings the polygon boxes return ~60
// searches per listing, each a heap row (and its criteria jsonb) read to keep ~25. Both are now columns generated
// from `criteria` (so they cannot drift from it, and every saved-search write maintains them in its own statement)
// and live in the polygon box's GiST index: the range as a second key (`price_range @> [price, price]`), the
// statuses and the id as INCLUDE columns, so the branch is an index-only scan. Box and range GiST opclasses store
// their values as they are (no compress function), which is what lets GiST return them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The engine's price predicates (price >= minimum and price <= maximum, each only when set) as one inclusive
    -- range, unbounded where unset. Validation rejects minimum > maximum; such a range (nothing matches it) is empty
    -- rather than an error.
    create function saved_search_price_range(criteria jsonb) returns numrange language sql immutable parallel safe as $$
      select case when (criteria->>'minimum_price')::numeric > (criteria->>'maximum_price')::numeric then 'empty'::numrange
        else numrange((criteria->>'minimum_price')::numeric, (criteria->>'maximum_price')::numeric, '[]') end
    $$;

    -- The listing statuses a search keeps (null: no status filter), as the engine reads them: only an array filters.
    create function saved_search_statuses(criteria jsonb) returns text[] language sql immutable parallel safe as $$
      select case when jsonb_typeof(criteria->'listing_statuses') = 'array'
        then array(select jsonb_array_elements_text(criteria->'listing_statuses')) end
    $$;

    alter table saved_searches
      add column price_range numrange generated always as (saved_search_price_range(criteria)) stored,
      add column statuses text[] generated always as (saved_search_statuses(criteria)) stored;
    create index saved_searches_area_price_idx on saved_searches using gist (area, price_range) include (id, statuses)
      where deleted_at is null and area is not null;
    drop index saved_searches_area_idx;
  `.execute(db);
}
