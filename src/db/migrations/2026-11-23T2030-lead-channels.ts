// Lead channels (decisions §14; docs/contacts.md): a brand's named capture points. The channel's uuid is the
// only credential of the public capture endpoint POST /leads/channels/:channel/webhook.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table lead_channels (
      id uuid primary key default gen_random_uuid(),
      brand uuid not null references brands (id),
      user_id uuid references users (id),
      title text,
      source_type text not null default 'Website',
      capture_count integer not null default 0,
      last_capture_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index lead_channels_brand_idx on lead_channels (brand, created_at) where deleted_at is null;
  `.execute(db);
}
