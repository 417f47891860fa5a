// The mail ledger (decisions §15, src/mail/): one row per outgoing message, written before it is sent, so a
// retried send job can tell what already went out and reuses the message's Message-ID.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table mail_messages (
      id uuid primary key default gen_random_uuid(),
      -- What the message belongs to: the email campaign (null for other senders, e.g. alerts).
      campaign uuid,
      contact uuid,
      purpose text not null,
      message_id text not null unique,
      from_address text not null,
      to_addresses text[] not null default '{}',
      cc_addresses text[] not null default '{}',
      bcc_addresses text[] not null default '{}',
      subject text not null,
      html text,
      text_body text,
      headers jsonb not null default '{}'::jsonb,
      state text not null default 'queued' check (state in ('queued', 'sending', 'sent', 'refused', 'failed')),
      attempts integer not null default 0,
      smtp_response text,
      accepted text[] not null default '{}',
      rejected text[] not null default '{}',
      last_error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      sent_at timestamptz
    );
    create index mail_messages_campaign_idx on mail_messages (campaign, state) where campaign is not null;
    create index mail_messages_created_idx on mail_messages (created_at desc, id);
  `.execute(db);
}
