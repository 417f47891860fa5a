// Boundaries catalogue (spec 2.8, decisions §8): one row per boundary with its GeoJSON as given, and one row per
// ring in boundary_rings so that containment is exact without PostGIS (a point is inside when it is in some outer
// ring and in none of that polygon's holes; see src/modules/boundaries/boundaries.geometry.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table boundaries (
      id uuid primary key default gen_random_uuid(),
      external_id text not null unique,
      boundary_type text not null
        check (boundary_type in ('country', 'state', 'county', 'city', 'neighborhood', 'postal_code')),
      title text not null,
      overridden_title text,
      -- ISO 3166-1 alpha-2 code
      country text,
      -- state or province name
      state text,
      subtitle text not null default '',
      aliases text not null default '',
      -- normalized (lower case, no accents) codes matched by q: postal codes, ISO codes, FIPS
      codes text[] not null default '{}',
      population bigint,
      -- x = longitude, y = latitude: an interior label point
      center point not null,
      geometry jsonb not null,
      -- normalized title, for exact / prefix ranking
      search_key text not null,
      -- maintained by the repository on every write (title and codes weight A, aliases B)
      searchable tsvector not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index boundaries_searchable_idx on boundaries using gin (searchable) where deleted_at is null;
    create index boundaries_search_key_idx on boundaries (search_key text_pattern_ops) where deleted_at is null;
    create index boundaries_codes_idx on boundaries using gin (codes) where deleted_at is null;
    create index boundaries_type_idx on boundaries (boundary_type, country, state) where deleted_at is null;

    create table boundary_rings (
      boundary uuid not null references boundaries(id) on delete cascade,
      polygon_index integer not null,
      ring_index integer not null,
      is_hole boolean not null,
      polygon polygon not null,
      -- bounding box of the ring: "box @> box(pt, pt)" is what the GiST index answers (box @> point is not indexable)
      box box not null,
      primary key (boundary, polygon_index, ring_index)
    );
    create index boundary_rings_box_idx on boundary_rings using gist (box);
    create index boundary_rings_polygon_idx on boundary_rings using gist (polygon);
  `.execute(db);
}
