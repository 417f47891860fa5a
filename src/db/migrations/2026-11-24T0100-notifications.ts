// Notifications (spec §2.10, decisions §10, docs/notifications.md): one row per notification, and one row per
// recipient holding that person's state of it (seen, acked, delivered, deleted). A notification sent to a room
// of five people is written once and read five times.
//
// `seq` orders a recipient's feed and is the id of the live stream's events (Last-Event-ID resumption): an
// identity column, so it only grows.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notifications (
      id uuid primary key default gen_random_uuid(),
      action text not null,
      notification_type text not null,
      message text not null,
      title text,
      object uuid, object_class text,
      subject uuid, subject_class text,
      auxiliary_object uuid, auxiliary_object_class text,
      auxiliary_subject uuid, auxiliary_subject_class text,
      extra_object_class text, extra_subject_class text,
      room uuid,
      recommendation uuid,
      exclude uuid[],
      data jsonb,
      sound text,
      app text,
      transports text[] not null default '{}',
      phone_number text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create table notification_recipients (
      notification uuid not null references notifications (id),
      "user" uuid not null references users (id),
      seq bigint generated always as identity,
      seen_at timestamptz,
      acked_at timestamptz,
      delivered_at timestamptz,
      deleted_at timestamptz,
      created_at timestamptz not null default now(),
      primary key (notification, "user")
    );
    -- the feed: newest first per recipient
    create index notification_recipients_feed_idx on notification_recipients ("user", seq desc) where deleted_at is null;
    -- info.new and the badge: the unseen count
    create index notification_recipients_unseen_idx on notification_recipients ("user") where deleted_at is null and seen_at is null;
  `.execute(db);
}
