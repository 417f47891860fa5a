// Foundation: brands and memberships, users, agents, OAuth clients and tokens, attempt counters.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create extension if not exists cube;
    create extension if not exists earthdistance;
    create extension if not exists pg_trgm;

    create table brands (
      id uuid primary key default gen_random_uuid(),
      parent uuid references brands(id),
      name text not null,
      brand_type text not null default 'Brokerage',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index brands_parent_idx on brands(parent) where deleted_at is null;

    -- White label: host names a brand owns (the partner authorization pages show that brand).
    create table brand_hostnames (
      hostname text primary key check (hostname = lower(hostname)),
      brand uuid not null references brands(id),
      created_at timestamptz not null default now()
    );

    create table users (
      id uuid primary key default gen_random_uuid(),
      username text,
      first_name text not null default '',
      last_name text not null default '',
      email text not null,
      phone_number text,
      password_hash text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz,
      address_id uuid,
      cover_image_url text,
      profile_image_url text,
      cover_image_thumbnail_url text,
      profile_image_thumbnail_url text,
      user_status text not null default 'Active',
      email_confirmed boolean not null default false,
      phone_confirmed boolean not null default false,
      timezone text not null default 'UTC',
      user_type text not null default 'Agent',
      is_shadow boolean default false,
      personal_room uuid not null default gen_random_uuid(),
      active_brand uuid references brands(id),
      fake_email text,
      features jsonb,
      last_seen_at timestamptz,
      last_seen_type text,
      email_signature text not null default '',
      bio text not null default '',
      daily_enabled boolean not null default true,
      push_allowed boolean not null default true,
      email_quota integer not null default 30000,
      website text, instagram text, twitter text, linkedin text, youtube text, facebook text, tiktok text,
      designation text,
      vendor_user_id text,
      mfa_enabled boolean not null default false,
      -- TOTP secret, encrypted (lib/crypto.ts); set by setup, kept while enabled.
      mfa_secret text,
      -- Highest TOTP time step accepted: a code at or below it is a replay.
      mfa_last_step bigint
    );
    create unique index users_email_live_idx on users (lower(email)) where deleted_at is null;

    create table memberships (
      id uuid primary key default gen_random_uuid(),
      brand uuid not null references brands(id),
      "user" uuid not null references users(id),
      role text not null default 'Member',
      acl text[] not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create unique index memberships_live_idx on memberships (brand, "user") where deleted_at is null;
    create index memberships_user_idx on memberships ("user") where deleted_at is null;

    create table agents (
      id uuid primary key default gen_random_uuid(),
      mls text not null,
      mlsid text not null,
      mls_unique_id text not null,
      email text, fax text, full_name text, first_name text, last_name text, middle_name text,
      phone_number text, work_phone text, nar_number text, nrds text, license_number text, designation text,
      generational_name text,
      office_mui text, office_mlsid text, office_id uuid,
      status text not null default 'Active',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz,
      unique (mls, mlsid)
    );
    create index agents_mui_idx on agents (mls_unique_id);

    create table user_agents (
      "user" uuid not null references users(id),
      agent uuid not null references agents(id),
      primary key ("user", agent)
    );
    create index user_agents_agent_idx on user_agents (agent);

    create table oauth_clients (
      id uuid primary key default gen_random_uuid(),
      client_id text not null unique,
      secret_hash text,
      name text not null,
      kind text not null check (kind in ('first_party', 'partner', 'public')),
      redirect_uris text[] not null default '{}',
      grants text[] not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );

    -- A login (or client-credentials grant, or partner authorization) starts a family; refresh rotates
    -- tokens inside it; revoking the family kills every token it issued.
    create table token_families (
      id uuid primary key default gen_random_uuid(),
      "user" uuid references users(id),
      client uuid not null references oauth_clients(id),
      -- Brand a partner token is bound to (it acts only in that brand's subtree); null = unbound.
      brand uuid references brands(id),
      grant_type text not null,
      mfa_validated boolean not null default false,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      revoked_reason text
    );
    create index token_families_user_idx on token_families ("user") where revoked_at is null;

    create table access_tokens (
      token_hash bytea primary key,
      family uuid not null references token_families(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index access_tokens_family_idx on access_tokens (family);
    create index access_tokens_expires_idx on access_tokens (expires_at);

    create table refresh_tokens (
      token_hash bytea primary key,
      family uuid not null references token_families(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      rotated_at timestamptz
    );
    create index refresh_tokens_family_idx on refresh_tokens (family);
    create index refresh_tokens_expires_idx on refresh_tokens (expires_at);

    create table authorization_codes (
      code_hash bytea primary key,
      client uuid not null references oauth_clients(id),
      "user" uuid not null references users(id),
      brand uuid not null references brands(id),
      redirect_uri text not null,
      code_challenge text,
      mfa_validated boolean not null default false,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz,
      -- The family the exchange created: a second use of the code revokes it.
      family uuid references token_families(id) on delete set null
    );
    create index authorization_codes_expires_idx on authorization_codes (expires_at);

    -- Failed-attempt counters for brute-force limits (per account, per IP). In the database, not in memory,
    -- because any number of API processes share them.
    create table attempt_counters (
      key text primary key,
      window_started_at timestamptz not null,
      failures integer not null default 0,
      consecutive integer not null default 0,
      blocked_until timestamptz,
      updated_at timestamptz not null default now()
    );
  `.execute(db);
}
