// The domain-event outbox (docs/adr/0006-domain-event-outbox.md). A feature records events with the
// transaction of its change, so an event exists exactly when the change committed; nothing is published
// from here. Consumers read with readEvents() from a job, in order, and keep their own position.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/types.js';
import { insertDomainEvents, selectFinalEvents } from './outbox.repository.js';
import type { Topic, TopicEvents } from './topics.js';

export interface DomainEvent<T extends Topic = Topic> {
  brand: string;
  topic: T;
  event: TopicEvents[T];
  /** The record the event is about (the contact, the deal…). */
  subject: string;
  payload: Record<string, unknown>;
}

/** Rows per insert statement: 5 parameters each, far below PostgreSQL's 65,535. */
const CHUNK = 2000;

/**
 * Records events in `trx`, the transaction that makes the change (a Transaction, not the pool: an event
 * written outside the change's transaction could outlive a rolled-back change).
 */
export async function recordEvents(trx: Transaction<DB>, events: readonly DomainEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += CHUNK) {
    await insertDomainEvents(
      trx,
      events.slice(i, i + CHUNK).map((e) => ({
        brand: e.brand,
        topic: e.topic,
        event: e.event,
        subject: e.subject,
        payload: JSON.stringify(e.payload),
      })),
    );
  }
}

export async function recordEvent<T extends Topic>(trx: Transaction<DB>, event: DomainEvent<T>): Promise<void> {
  await recordEvents(trx, [event as DomainEvent]);
}

/** Where a consumer stands: the (transaction, id) of the last event it handled. */
export interface OutboxPosition {
  tx: string;
  id: number;
}

export interface StoredEvent extends DomainEvent {
  id: number;
  position: OutboxPosition;
  created_at: Date;
}

export interface ReadOptions {
  /** Events after this position (default: from the start). */
  after?: OutboxPosition | null;
  topic?: Topic;
  brand?: string;
  limit?: number;
}

/**
 * Events after `after`, oldest first, only from transactions older than every transaction still running:
 * those are final (committed or gone), and every event committed later sorts after them. So a consumer that
 * stores the position of the last event it handled never skips one, and never sees one twice.
 */
export async function readEvents(db: Kysely<DB>, options: ReadOptions = {}): Promise<StoredEvent[]> {
  const rows = await selectFinalEvents(db, {
    after: options.after ?? null,
    topic: options.topic,
    brand: options.brand,
    limit: Math.min(Math.max(options.limit ?? 100, 1), 10_000),
  });
  return rows.map((row) => ({
    id: row.id,
    position: { tx: row.tx, id: row.id },
    brand: row.brand,
    topic: row.topic as Topic,
    event: row.event as TopicEvents[Topic],
    subject: row.subject,
    payload: row.payload as Record<string, unknown>,
    created_at: row.created_at,
  }));
}
