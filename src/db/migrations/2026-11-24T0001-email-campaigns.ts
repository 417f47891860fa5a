// Email campaigns (spec 2.6, decisions §7, §15; docs/emails.md). Counters sent/accepted/rejected come from the
// mail ledger (mail_messages.campaign); recipients are kept as the client sent them and resolved at send time.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table email_campaigns (
      id uuid primary key default gen_random_uuid(),
      brand uuid not null references brands (id),
      created_by uuid not null references users (id),
      subject text not null,
      html text not null,
      text text,
      include_signature boolean not null default false,
      individual boolean not null default false,
      headers jsonb not null default '{}'::jsonb,
      recipients jsonb not null,
      notifications_enabled boolean not null default false,
      archive boolean not null default false,
      tags text[] not null default '{}',
      due_at timestamptz not null,
      executed_at timestamptz,
      failed_at timestamptz,
      failure jsonb,
      recipients_count integer,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    );
    create index email_campaigns_brand_idx on email_campaigns (brand, created_at desc, id) where deleted_at is null;
  `.execute(db);
}
