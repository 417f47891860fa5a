// Brand profile for existing clients (decisions §19): each brand's own marketing palette (keys it does not set
// are inherited from its nearest ancestor that does), and the windows of the per-IP limit on public routes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table brands add column marketing_palette jsonb not null default '{}'::jsonb;

    -- Fixed windows of the public-route rate limit (platform/rate-limit.ts): one row per bucket and client IP.
    create table rate_limit_windows (
      key text primary key,
      window_started_at timestamptz not null,
      hits integer not null
    );
    create index rate_limit_windows_started_idx on rate_limit_windows (window_started_at);
  `.execute(db);
}
