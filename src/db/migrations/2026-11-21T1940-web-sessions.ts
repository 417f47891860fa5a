// Web sessions of the partner authorization pages (src/web): who signed in on this browser, whether they
// passed MFA, the CSRF secret of their forms and the authorization request in progress.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table web_sessions (
      id uuid primary key default gen_random_uuid(),
      -- SHA-256 of the random session id in the cookie: a database leak gives no usable cookie.
      session_hash bytea not null unique,
      "user" uuid references users(id),
      mfa_passed boolean not null default false,
      csrf_secret text not null,
      -- The /oauth2/auth request being worked through (client, redirect URI, state, PKCE, chosen brand).
      pending jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index web_sessions_expires_idx on web_sessions (expires_at);
  `.execute(db);
}
