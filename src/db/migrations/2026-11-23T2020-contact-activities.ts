// A contact's timeline (decisions §7, §14; docs/contacts.md): one row per recorded activity. The attachment
// (`listing`, `lead`, `search`) is stored in the shape the Activities webhook carries (spec §6), so the
// timeline and the event show the same thing even after the listing changes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table contact_activities (
      id uuid primary key default gen_random_uuid(),
      contact uuid not null references contacts (id),
      brand uuid not null references brands (id),
      action text not null,
      listing jsonb,
      lead jsonb,
      search jsonb,
      notes text,
      created_by uuid references users (id),
      created_at timestamptz not null default now()
    );
    create index contact_activities_timeline_idx on contact_activities (contact, created_at desc, id desc);
  `.execute(db);
}
