// CRM contacts (spec §2.7, decisions §14, docs/contacts.md): one row per contact, owned by one brand.
//
// Lists are arrays on the row, primary first: `emails` as the client wrote them, `email_keys` the same
// lower-cased (matching, lead dedupe), `phone_numbers` in E.164. Dates whose year may be unknown (birthday,
// anniversaries) are ISO text `YYYY-MM-DD`, year `0000` = unknown: a `date` column cannot hold that.
// Derived columns (display_name, sort_field, next_touch, search_tsv) are written by the one writer,
// contacts.repository.ts, on every insert and update, from the whole row, so they are never stale.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table contacts (
      id uuid primary key default gen_random_uuid(),
      brand uuid not null references brands (id),
      user_id uuid references users (id),
      title text, first_name text, middle_name text, last_name text, nickname text, marketing_name text,
      partner_first_name text, partner_last_name text, partner_email text,
      company text, job_title text,
      emails text[] not null default '{}',
      email_keys text[] not null default '{}',
      phone_numbers text[] not null default '{}',
      birthday text check (birthday ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      home_anniversary text check (home_anniversary ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      wedding_anniversary text check (wedding_anniversary ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      profile_image_url text, cover_image_url text,
      website text[] not null default '{}',
      tags text[] not null default '{}',
      address jsonb not null default '[]',
      source_type text not null default 'ExplicitlyCreated',
      source text,
      parked boolean not null default false,
      unsubscribed boolean not null default false,
      ios_address_book_id text, android_address_book_id text,
      touch_freq integer check (touch_freq between 1 and 3650),
      last_touch timestamptz,
      last_touch_action text,
      next_touch timestamptz,
      display_name text not null,
      -- the key of +display_name ordering: lower-cased display name, compared byte-wise (same on every server)
      sort_field text collate "C" not null,
      search_tsv tsvector not null default ''::tsvector,
      created_for text, updated_for text, deleted_for text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index contacts_brand_sort_idx on contacts (brand, sort_field, id) where deleted_at is null;
    create index contacts_brand_created_idx on contacts (brand, created_at, id) where deleted_at is null;
    create index contacts_brand_updated_idx on contacts (brand, updated_at, id) where deleted_at is null;
    -- last_touch has nulls (never touched), listed last in both directions: one index per direction
    create index contacts_brand_last_touch_idx on contacts (brand, last_touch, id) where deleted_at is null;
    create index contacts_brand_last_touch_desc_idx on contacts (brand, last_touch desc nulls last, id desc) where deleted_at is null;
    create index contacts_search_idx on contacts using gin (search_tsv) where deleted_at is null;
    create index contacts_tags_idx on contacts using gin (tags) where deleted_at is null;
    create index contacts_email_keys_idx on contacts using gin (email_keys) where deleted_at is null;
    create index contacts_phone_numbers_idx on contacts using gin (phone_numbers) where deleted_at is null;
  `.execute(db);
}
