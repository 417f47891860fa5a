// Hardening (issue 8): first-start steps that resume after a crash, attempt-counter keys hashed, and what the
// refresh grant needs to tell a lost response from a stolen token (the pair a rotation produced, its first use).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- One row per first-start step of an embedded server: started, then completed. A step that started but did not
    -- complete (the process was killed) runs again at the next start; every step is idempotent.
    create table first_start_steps (
      name text primary key,
      started_at timestamptz not null,
      completed_at timestamptz
    );

    -- Counter keys become kind:SHA-256(identity) (platform/attempts.ts attemptKey); existing counters keep counting.
    update attempt_counters
       set key = split_part(key, ':', 1) || ':' ||
                 rtrim(translate(encode(sha256(convert_to(substr(key, position(':' in key) + 1), 'UTF8')), 'base64'), '+/', '-_'), '=');

    -- First use of an access token (set once, by the bearer check).
    alter table access_tokens add column used_at timestamptz;
    -- The access token issued with this refresh token; the refresh token that replaced it at rotation; when its one
    -- lost-response replay was spent (decisions §3).
    alter table refresh_tokens
      add column access_token_hash bytea,
      add column replaced_by bytea,
      add column replayed_at timestamptz;
  `.execute(db);
}
