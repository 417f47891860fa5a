// Tracking of sent mail (decisions §15, docs/mail.md): what happened to a message after the relay took it —
// opened (pixel), clicked (signed redirect), unsubscribed (one-click link), and delivered / failed / complained
// from the signed provider feed (POST /emails/events). One row per (message, kind, recipient), so a repeated hit
// or a re-sent event changes nothing and the campaign counters count unique recipients, not hits.
// mail_unsubscribes remembers addresses that asked to stop a brand's marketing mail (also those that are no contact).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table mail_events (
      id uuid primary key default gen_random_uuid(),
      message uuid not null references mail_messages (id) on delete cascade,
      campaign uuid,
      kind text not null check (kind in ('opened', 'clicked', 'unsubscribed', 'delivered', 'failed', 'complained')),
      -- The recipient the event is about ('' when the message has several and the event cannot tell which).
      recipient text not null default '',
      detail jsonb,
      occurred_at timestamptz not null,
      created_at timestamptz not null,
      unique (message, kind, recipient)
    );
    create index mail_events_campaign_idx on mail_events (campaign, kind) where campaign is not null;

    create table mail_unsubscribes (
      brand uuid not null references brands (id),
      -- Lower-cased address (contacts' emailKey).
      email_key text not null,
      message uuid references mail_messages (id) on delete set null,
      created_at timestamptz not null,
      primary key (brand, email_key)
    );

    -- The brand whose marketing mail a message is (its unsubscribe link stops that brand's mail).
    alter table mail_messages add column brand uuid;

    -- email_quota (decisions §15): the calendar month of due_at in the sender's time zone ('2026-11'), and the
    -- recipients counted when the campaign was planned (recipients_count replaces it once sent).
    alter table email_campaigns add column sender_month text;
    alter table email_campaigns add column planned_recipients integer;
    create index email_campaigns_quota_idx on email_campaigns (created_by, brand, sender_month) where individual and deleted_at is null;
  `.execute(db);
}
