// Showings (decisions §17; docs/showings.md): a visit of a listing by a contact with an agent, brand-owned.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table showings (
      id uuid primary key default gen_random_uuid(),
      brand uuid not null references brands (id),
      listing uuid not null references listings (id),
      contact uuid references contacts (id),
      agent uuid not null references users (id),
      start_time timestamptz not null,
      end_time timestamptz not null,
      status text not null,
      notes text,
      feedback text,
      created_by uuid references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (end_time >= start_time)
    );
    create index showings_brand_start_idx on showings (brand, start_time, id);
  `.execute(db);
}
