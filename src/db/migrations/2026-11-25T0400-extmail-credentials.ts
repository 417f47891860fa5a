// Linked external mailboxes (spec §2.4, §4.3; decisions §12; docs/extmail.md). Tokens are SecretBox-sealed and
// erased on delete. One live credential per (user, brand, provider, remote account): linking again updates it.
// `extmail_link_states` remembers every state nonce a callback consumed, so a state is good for one callback.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table extmail_credentials (
      id uuid primary key default gen_random_uuid(),
      "user" uuid not null references users (id),
      brand uuid not null references brands (id),
      provider text not null check (provider in ('microsoft')),
      remote_id text not null check (length(remote_id) between 1 and 200),
      email text not null,
      resource_name text not null,
      display_name text not null,
      first_name text,
      last_name text,
      photo text,
      scope jsonb,
      scope_summary jsonb,
      revoked boolean not null default false,
      access_token_sealed text,
      refresh_token_sealed text,
      access_expires_at timestamptz,
      contacts_sync_token text,
      cfolders_sync_token text,
      send_email_after timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create unique index extmail_credentials_account_idx on extmail_credentials ("user", brand, provider, remote_id) where deleted_at is null;
    create index extmail_credentials_user_idx on extmail_credentials ("user", created_at) where deleted_at is null;
    create table extmail_link_states (
      nonce text primary key,
      expires_at timestamptz not null
    );
  `.execute(db);
}
