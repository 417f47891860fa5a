// Saved searches (spec §2.5, decisions §6; docs/saved-searches.md): brand-owned listing criteria, the brands and
// boundaries they name (join tables: they are records, not text), and the contacts alerted with their schedule.
// `criteria` holds the normalized criteria of listings/search (search.validation.ts) minus brands and boundaries.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table saved_searches (
      id uuid primary key default gen_random_uuid(),
      brand uuid not null references brands (id),
      created_by uuid references users (id),
      from_user uuid references users (id),
      title text,
      -- written with the criteria (it names boundaries by title, which a read would otherwise look up)
      proposed_title text not null,
      criteria jsonb not null default '{}'::jsonb,
      frequency text not null default 'Instant',
      send_time integer,
      send_weekday integer,
      send_monthday integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index saved_searches_brand_idx on saved_searches (brand, created_at desc, id desc) where deleted_at is null;

    create table saved_search_brands (
      saved_search uuid not null references saved_searches (id),
      brand uuid not null references brands (id),
      primary key (saved_search, brand)
    );

    create table saved_search_boundaries (
      saved_search uuid not null references saved_searches (id),
      boundary uuid not null references boundaries (id),
      position integer not null,
      primary key (saved_search, boundary)
    );

    create table saved_search_contacts (
      saved_search uuid not null references saved_searches (id),
      contact uuid not null references contacts (id),
      frequency text not null,
      send_time integer,
      send_weekday integer,
      send_monthday integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (saved_search, contact)
    );
    create index saved_search_contacts_contact_idx on saved_search_contacts (contact);
  `.execute(db);
}
