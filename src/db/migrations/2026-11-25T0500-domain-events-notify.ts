// Wakes the consumers of the domain-event outbox (the webhook fan-out pump) as soon as events commit:
// NOTIFY is delivered at commit, and only if the transaction commits. One notification per statement (and
// PostgreSQL folds equal ones of a transaction into one). Losing one costs latency only: the pump also
// sweeps the outbox every second (docs/webhooks.md).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notify_domain_events() returns trigger language plpgsql as $$
    begin
      perform pg_notify('gable_domain_events', '');
      return null;
    end
    $$;
    create trigger domain_events_notify after insert on domain_events for each statement execute function notify_domain_events();
  `.execute(db);
}
