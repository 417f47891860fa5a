// The listing record existing clients read (issue 18): the MLS registry behind `mls_info`, and the listing
// office's name for the courtesy line.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- One row per MLS (the listings' \`mls\`): its display name, the disclaimer its rules require next to its
    -- listings (may hold the {{currentYear}} placeholder, kept as written: clients substitute it) and its logo.
    -- Managed with \`gable admin mls set\`.
    create table mls_registry (
      mls text primary key,
      name text not null,
      disclaimer text,
      logo_url text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    -- The listing office's name as the feed sends it ("Listing courtesy of <office>").
    alter table listings add column list_office_name text;
  `.execute(db);
}
