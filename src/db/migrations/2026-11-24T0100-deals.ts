// Deals (decisions §17; docs/deals.md): brand-owned transactions. Roles live inside the deal (jsonb): they are
// read, written and searched with it and never queried alone. `title` is derived on every write from
// `title_given` and the address, so it is never stale; `search_tsv` holds the lexemes of title, address and
// role names (lib/search-words.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table deals (
      id uuid primary key default gen_random_uuid(),
      brand uuid not null references brands (id),
      deal_type text not null,
      property_type text not null,
      title text not null,
      title_given text,
      listing uuid references listings (id),
      status text not null,
      context jsonb not null default '{}',
      roles jsonb not null default '[]',
      search_tsv tsvector not null,
      created_by uuid references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index deals_brand_updated_idx on deals (brand, updated_at desc, id desc) where deleted_at is null;
    create index deals_search_idx on deals using gin (search_tsv) where deleted_at is null;
  `.execute(db);
}
