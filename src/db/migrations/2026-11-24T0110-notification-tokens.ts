// Device tokens for push (spec §4.8, decisions §10, §16; docs/notifications.md): a token is unique per (app,
// channel) — a device registered again, by anyone, is moved to that user. The channel (an APNs or FCM token, or
// a Web Push subscription with its keys) is encrypted at rest; `channel_hash` (SHA-256) is what uniqueness and
// look-ups use, because a 4 KiB text cannot be a btree key and the plaintext must not be one either.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notification_tokens (
      id uuid primary key default gen_random_uuid(),
      "user" uuid not null references users (id),
      app text not null,
      provider text not null check (provider in ('webpush', 'fcm', 'apns')),
      channel_hash bytea not null,
      channel_encrypted text not null,
      device_id text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index notification_tokens_app_channel_idx on notification_tokens (app, channel_hash);
    create index notification_tokens_user_idx on notification_tokens ("user", app);
  `.execute(db);
}
