// Triggers (spec 2.6, decisions §7; docs/triggers.md): a contact's date (birthday, home or wedding anniversary)
// schedules a copy of an email campaign at a fire time in the trigger user's time zone. `effective_at` is the
// planned fire time; a recurring trigger, once executed, is followed by next year's (`scheduled_after`).
// A campaign a trigger uses becomes its template (`email_campaigns.template`): it is never sent on its own.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table email_campaigns add column template boolean not null default false;
    create table triggers (
      id uuid primary key default gen_random_uuid(),
      brand uuid not null references brands (id),
      "user" uuid not null references users (id),
      created_by uuid not null references users (id),
      contact uuid not null references contacts (id),
      event_type text not null check (event_type in ('birthday', 'home_anniversary', 'wedding_anniversary')),
      action text not null check (action = 'schedule_email'),
      wait_for integer not null,
      "time" integer check ("time" between 0 and 86399),
      recurring boolean not null default false,
      campaign uuid not null references email_campaigns (id),
      effective_at timestamptz not null,
      executed_at timestamptz,
      failed_at timestamptz,
      failure jsonb,
      scheduled_after uuid references triggers (id),
      sent_campaign uuid references email_campaigns (id),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    );
    create index triggers_contact_idx on triggers (contact, effective_at) where deleted_at is null;
    create index triggers_brand_idx on triggers (brand, effective_at, id) where deleted_at is null;
    create index triggers_pending_user_idx on triggers ("user") where deleted_at is null and executed_at is null and failed_at is null;
    create index triggers_campaign_idx on triggers (campaign) where deleted_at is null;
    create unique index triggers_successor_idx on triggers (scheduled_after) where scheduled_after is not null;
  `.execute(db);
}
