// The recipient's part of a feed record (`seen`, `seen_at`, `acked_at`, `delivered_at`), kept as a JSON fragment on
// the recipient's row (`state_json`: `,"seen":false,"seen_at":null,…`), which the feed page appends to the
// notification's open record (`record_head`, migration 2026-11-28T0900). Written when the row is inserted and when
// one of its three times changes; read by every poll. Computed on every read, the three epochs and their text were
// a fifth of the page statement's CPU (backend CPU per execution of the same page: 150 µs → 115 µs).
// Epoch seconds by `feed_epoch` (migration 2026-11-28T0900).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table notification_recipients add column state_json text;

    create function notification_recipients_state_json() returns trigger language plpgsql as $$
    begin
      new.state_json := ',"seen":' || (new.seen_at is not null)::text
        || ',"seen_at":' || coalesce(feed_epoch(new.seen_at)::text, 'null')
        || ',"acked_at":' || coalesce(feed_epoch(new.acked_at)::text, 'null')
        || ',"delivered_at":' || coalesce(feed_epoch(new.delivered_at)::text, 'null');
      return new;
    end
    $$;

    create trigger notification_recipients_state_json before insert or update of seen_at, acked_at, delivered_at
      on notification_recipients for each row execute function notification_recipients_state_json();

    -- Existing rows: an update naming a time fires the trigger; then no row is without its fragment.
    update notification_recipients set seen_at = seen_at;
    alter table notification_recipients alter column state_json set not null;
  `.execute(db);
}
