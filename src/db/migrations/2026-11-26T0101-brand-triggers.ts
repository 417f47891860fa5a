// Brand triggers (issue 10 item 4; docs/triggers.md): one per brand and event type, emailing every contact of the
// brand on their date. A sweep sends each contact once per occurrence (brand_trigger_sends); `swept_until` is how
// far in time it has looked. Exclusions keep contacts out; a contact's own trigger for the event overrides.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table brand_triggers (
      id uuid primary key default gen_random_uuid(),
      brand uuid not null references brands (id),
      event_type text not null check (event_type in ('birthday', 'home_anniversary', 'wedding_anniversary')),
      "user" uuid not null references users (id),
      wait_for integer not null,
      "time" integer check ("time" between 0 and 86399),
      subject text not null,
      html text not null,
      enabled boolean not null default true,
      swept_until timestamptz not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create unique index brand_triggers_brand_event_idx on brand_triggers (brand, event_type);
    create index brand_triggers_due_idx on brand_triggers (swept_until) where enabled;
    create table brand_trigger_exclusions (
      brand_trigger uuid not null references brand_triggers (id),
      contact uuid not null references contacts (id),
      created_at timestamptz not null,
      primary key (brand_trigger, contact)
    );
    create table brand_trigger_sends (
      brand_trigger uuid not null references brand_triggers (id),
      contact uuid not null references contacts (id),
      event_date date not null,
      campaign uuid not null references email_campaigns (id),
      primary key (brand_trigger, contact, event_date)
    );
  `.execute(db);
}
