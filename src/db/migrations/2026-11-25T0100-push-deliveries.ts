// One row per push (notification × device): the ledger that makes push jobs idempotent (docs/notifications.md
// "Push"). A job carries (delivery, attempt) and acts only while the row is `pending` at attempt - 1, so a job
// that runs twice never sends again what the provider accepted, and never adds a retry.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table push_deliveries (
      id uuid primary key default gen_random_uuid(),
      notification uuid not null references notifications (id),
      "user" uuid not null references users (id),
      token uuid references notification_tokens (id) on delete set null,
      provider text not null check (provider in ('webpush', 'fcm', 'apns')),
      app text not null,
      status text not null check (status in ('pending', 'sent', 'skipped', 'dead_token', 'failed', 'dropped')),
      attempts integer not null default 0,
      last_status integer,
      last_error text,
      next_attempt_at timestamptz,
      sent_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index push_deliveries_notification_idx on push_deliveries (notification);
    create index push_deliveries_token_idx on push_deliveries (token);
  `.execute(db);
}
