// Every statement of domain_events (events/outbox.ts holds the outbox's rules: chunks, positions, the records).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/types.js';

export interface DomainEventRow {
  brand: string;
  topic: string;
  event: string;
  subject: string;
  /** JSON text. */
  payload: string;
}

/** Inserts these events in `trx`, the transaction of the change they record. */
export async function insertDomainEvents(trx: Transaction<DB>, rows: DomainEventRow[]): Promise<void> {
  await trx.insertInto('domain_events').values(rows).execute();
}

export interface EventsQuery {
  /** The (transaction id as text, id) after which to read; null from the start. */
  after: { tx: string; id: number } | null;
  topic?: string;
  brand?: string;
  limit: number;
}

/**
 * Events after `after`, in (tx, id) order, only from transactions older than every transaction still running:
 * those are final (committed or gone), and every event committed later sorts after them.
 */
export async function selectFinalEvents(db: Kysely<DB>, query: EventsQuery) {
  let statement = db
    .selectFrom('domain_events')
    .select(['id', sql<string>`tx::text`.as('tx'), 'brand', 'topic', 'event', 'subject', 'payload', 'created_at'])
    .where(sql<boolean>`tx < pg_snapshot_xmin(pg_current_snapshot())`)
    .orderBy('tx')
    .orderBy('id')
    .limit(query.limit);
  if (query.after) {
    const { tx, id } = query.after;
    statement = statement.where(sql<boolean>`(tx, id) > (${tx}::xid8, ${id}::bigint)`);
  }
  if (query.topic) statement = statement.where('topic', '=', query.topic);
  if (query.brand) statement = statement.where('brand', '=', query.brand);
  return statement.execute();
}
