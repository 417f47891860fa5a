// Matching listing events against saved searches (issue 12 item 2, docs/saved-searches.md "Matching").
// The searches index their own criteria so an event finds its candidate searches through indexes, never by
// reading every search: the polygon's bounding box (GiST), the agent/office anchors as prefixed keys (GIN), and
// the boundaries and brands they name (btree on the join tables). Candidates are then confirmed by the search
// engine's own compiled SQL, so the index only has to be a superset. Both derived columns are generated from
// `criteria`, so they can never drift from it (and existing rows are filled by this migration).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Bounding box of the search's points polygon (null without one): min/max of its vertices, parsed as the
    -- engine's polygon literal parses them.
    create function saved_search_area(criteria jsonb) returns box language sql immutable parallel safe as $$
      select case when jsonb_typeof(criteria->'points') = 'array' and jsonb_array_length(criteria->'points') > 0 then (
        select box(point(min((p->>'longitude')::float8), min((p->>'latitude')::float8)),
                   point(max((p->>'longitude')::float8), max((p->>'latitude')::float8)))
        from jsonb_array_elements(criteria->'points') as p)
      end
    $$;

    -- Agent and office anchors as keys a listing can produce from its own columns: la: list agent, sa: selling
    -- agent, a: any agent slot, lo: list office, so: selling office, o: any office slot.
    create function saved_search_anchor_keys(criteria jsonb) returns text[] language sql immutable parallel safe as $$
      select coalesce(array_agg(k.prefix || v.value), '{}')
      from (values ('list_agents', 'la:'), ('selling_agents', 'sa:'), ('agents', 'a:'),
                   ('list_offices', 'lo:'), ('selling_offices', 'so:'), ('offices', 'o:')) as k(field, prefix)
      cross join lateral jsonb_array_elements_text(
        case when jsonb_typeof(criteria->k.field) = 'array' then criteria->k.field else '[]'::jsonb end) as v(value)
    $$;

    alter table saved_searches
      add column area box generated always as (saved_search_area(criteria)) stored,
      add column anchor_keys text[] generated always as (saved_search_anchor_keys(criteria)) stored;
    create index saved_searches_area_idx on saved_searches using gist (area) where deleted_at is null and area is not null;
    create index saved_searches_anchor_keys_idx on saved_searches using gin (anchor_keys) where deleted_at is null;
    create index saved_search_brands_brand_idx on saved_search_brands (brand);
    create index saved_search_boundaries_boundary_idx on saved_search_boundaries (boundary);

    -- One row per (search, event): the listing event matched the search (its listing was in the search's results
    -- when the event was matched). Idempotent: a retried match job inserts nothing twice.
    create table saved_search_matches (
      id uuid primary key default gen_random_uuid(),
      saved_search uuid not null references saved_searches (id),
      listing uuid not null references listings (id) on delete cascade,
      event uuid not null references listing_events (id) on delete cascade,
      event_type text not null,
      event_at timestamptz not null,
      created_at timestamptz not null default now(),
      unique (saved_search, event)
    );
    create index saved_search_matches_search_idx on saved_search_matches (saved_search, created_at);

    -- When the event was matched (null: not yet), for the matching lag. Events recorded before alerts existed
    -- count as matched: nothing will match them now.
    alter table listing_events add column matched_at timestamptz;
    update listing_events set matched_at = created_at;
  `.execute(db);
}
