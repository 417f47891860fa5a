// Listings (decisions §5): one row per (mls, mls_number) with the property flattened into columns so every search
// criterion is a plain indexed predicate; their open houses; and the listing events that alerts consume.
//
// Derived columns (agent_muis, office_mls_ids, parking_spaces_total, open_house_until and the three tsvectors)
// are plain columns written by listings.repository.ts on every upsert, not `generated always` columns: the
// search tests and benchmarks write rows straight into this table, and a generated column refuses explicit
// values. The repository is the one writer that keeps them consistent (docs/listings.md).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table listings (
      id uuid primary key default gen_random_uuid(),
      mls text not null,
      mls_number text not null,
      status text not null check (status in ('Active', 'Coming Soon', 'Active Under Contract', 'Pending', 'Sold',
        'Leased', 'Temp Off Market', 'Withdrawn', 'Expired', 'Cancelled')),
      price numeric,
      original_price numeric,
      last_price numeric,
      close_price numeric,
      close_date timestamptz,
      list_date timestamptz,
      currency text not null default 'USD',
      office_exclusive boolean,
      content text,

      list_agent_mui text, co_list_agent_mui text, co_list_agent2_mui text, co_list_agent3_mui text,
      selling_agent_mui text, co_selling_agent_mui text, co_selling_agent2_mui text, co_selling_agent3_mui text,
      list_office_mls_id text, co_list_office_mls_id text, selling_office_mls_id text, co_selling_office_mls_id text,
      -- every filled agent / office slot: "any slot" criteria are one GIN test (agent_muis && $1)
      agent_muis text[] not null default '{}',
      office_mls_ids text[] not null default '{}',

      property_type text,
      property_subtype text,
      bedroom_count integer,
      full_bathroom_count integer,
      half_bathroom_count integer,
      -- full + 0.5 × half (decisions §5)
      bathroom_count numeric,
      square_meters double precision,
      lot_square_meters double precision,
      year_built integer,
      parking_spaces_covered_total integer,
      parking_spaces_uncovered_total integer,
      -- covered + uncovered (either alone when the other is unknown)
      parking_spaces_total integer,
      pool boolean, pets boolean, application_fee boolean, appliances boolean, furnished boolean, fenced_yard boolean,
      number_of_pets_allowed integer,
      -- feature arrays of the record (interior/exterior features…) that no criterion filters on
      features jsonb not null default '{}',

      street_number text, street_name text, unit_number text, city text, state text, postal_code text, country text,
      full_address text, street_address text,
      -- x = longitude, y = latitude
      location point,

      gallery_image_urls text[] not null default '{}',
      cover_image_url text,
      -- latest end_time of its open houses: "has an active open house" = open_house_until > now()
      open_house_until timestamptz,

      search_tsv tsvector not null default ''::tsvector,
      content_tsv tsvector not null default ''::tsvector,
      address_tsv tsvector not null default ''::tsvector,

      -- hash of the ingested record: an identical re-import is detected without rewriting the row
      source_hash text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz,
      unique (mls, mls_number)
    );
    create index listings_location_idx on listings using gist (location);
    create index listings_price_idx on listings (price);
    create index listings_status_idx on listings (status);
    create index listings_list_date_idx on listings (list_date);
    create index listings_mls_number_idx on listings (mls_number);
    create index listings_postal_code_idx on listings (postal_code);
    create index listings_list_agent_idx on listings (list_agent_mui);
    create index listings_selling_agent_idx on listings (selling_agent_mui);
    create index listings_list_office_idx on listings (list_office_mls_id);
    create index listings_selling_office_idx on listings (selling_office_mls_id);
    create index listings_open_house_until_idx on listings (open_house_until) where open_house_until is not null;
    create index listings_agent_muis_idx on listings using gin (agent_muis);
    create index listings_office_mls_ids_idx on listings using gin (office_mls_ids);
    create index listings_search_tsv_idx on listings using gin (search_tsv);
    create index listings_content_tsv_idx on listings using gin (content_tsv);
    create index listings_address_tsv_idx on listings using gin (address_tsv);

    create table listing_open_houses (
      id uuid primary key default gen_random_uuid(),
      listing uuid not null references listings(id) on delete cascade,
      start_time timestamptz not null,
      end_time timestamptz not null,
      description text
    );
    create index listing_open_houses_listing_idx on listing_open_houses (listing, start_time);

    -- Written in the same transaction as the upsert that caused them; alerts read them in created_at order.
    create table listing_events (
      id uuid primary key default gen_random_uuid(),
      listing uuid not null references listings(id) on delete cascade,
      type text not null check (type in ('BecameAvailable', 'PriceDropped', 'StatusChanged')),
      old_status text,
      new_status text,
      old_price numeric,
      new_price numeric,
      created_at timestamptz not null default now()
    );
    create index listing_events_created_idx on listing_events (created_at);
    create index listing_events_listing_idx on listing_events (listing, created_at);
  `.execute(db);
}
