// Webhook deliveries (docs/webhooks.md). The fan-out reads the domain-event outbox from its own position
// (`webhook_outbox_position`, one row, locked while a fan-out runs so any number of workers can try) and writes
// one delivery per (event, webhook) with the exact body it will send: signatures cover that body, so it never
// changes across retries. Each try of a delivery is a row of `webhook_attempts` (the delivery log).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_outbox_position (
      id smallint primary key check (id = 1),
      tx xid8,
      event_id bigint
    );
    insert into webhook_outbox_position (id) values (1);

    create table webhook_deliveries (
      id uuid primary key default gen_random_uuid(),
      webhook uuid not null references brand_webhooks (id),
      event_id bigint,
      topic text not null,
      event text not null,
      body text not null,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed', 'dropped')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      last_status integer,
      last_error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      delivered_at timestamptz,
      unique (webhook, event_id)
    );
    create index webhook_deliveries_log_idx on webhook_deliveries (webhook, created_at desc, id);
    create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';

    create table webhook_attempts (
      id bigint generated always as identity primary key,
      delivery uuid not null references webhook_deliveries (id) on delete cascade,
      attempt integer not null,
      at timestamptz not null,
      http_status integer,
      duration_ms integer not null,
      error text,
      response_excerpt text
    );
    create index webhook_attempts_delivery_idx on webhook_attempts (delivery, attempt);
    create index webhook_attempts_at_idx on webhook_attempts (at);
  `.execute(db);
}
