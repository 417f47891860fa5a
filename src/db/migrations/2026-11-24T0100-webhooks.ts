// Brand webhooks (spec §2.9, §4.7; decisions §9; docs/webhooks.md). The signing key is stored encrypted
// (lib/crypto.ts SecretBox) and shown once. `previous_key` keeps the key a rotation replaced, for its grace
// period; `disabled_at` is set by a 410 answer or five days of failures (`failing_since`: the first failed
// attempt since the last success), and cleared by an enable.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table brand_webhooks (
      id uuid primary key default gen_random_uuid(),
      brand uuid not null references brands (id),
      topic text not null check (topic in ('Deals', 'Showings', 'Contacts', 'Activities')),
      url text not null check (length(url) <= 2048),
      tags text[],
      key_sealed text not null,
      previous_key_sealed text,
      previous_key_until timestamptz,
      disabled_at timestamptz,
      disabled_reason text,
      failing_since timestamptz,
      created_by uuid references users (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index brand_webhooks_brand_idx on brand_webhooks (brand, topic, created_at) where deleted_at is null;
  `.execute(db);
}
