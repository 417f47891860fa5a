// The domain-event outbox (docs/adr/0006-domain-event-outbox.md): one row per event, written in the transaction
// of the change it describes. Consumers (webhooks, alerts) read it later, in order, from a job.
//
// `id` orders events within a transaction and breaks ties; `tx` is the writing transaction (xid8). Identity
// values are handed out at insert, not at commit, so a reader that only remembered the highest id could skip
// an event whose transaction committed late. Readers therefore read in (tx, id) order and only rows whose
// transaction is older than every transaction still running (pg_snapshot_xmin): such rows are final, and any
// row written later sorts after them (src/events/outbox.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table domain_events (
      id bigint generated always as identity primary key,
      tx xid8 not null default pg_current_xact_id(),
      brand uuid not null,
      topic text not null check (topic in ('Contacts', 'Activities', 'Deals', 'Showings')),
      event text not null,
      subject uuid not null,
      payload jsonb not null,
      created_at timestamptz not null default now()
    );
    create index domain_events_position_idx on domain_events (tx, id);
    create index domain_events_brand_position_idx on domain_events (brand, tx, id);
  `.execute(db);
}
