// Kysely type of the outbox table (migration 2026-11-23T2010-domain-events).
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from '../db/types.js';

export interface DomainEventsTable {
  id: Generated<number>;
  /** xid8 of the writing transaction; set by the database, read as text. */
  tx: ColumnType<string, never, never>;
  brand: string;
  topic: string;
  event: string;
  subject: string;
  payload: ColumnType<unknown, string, never>;
  created_at: CreatedAt;
}

export interface EventsTables {
  domain_events: DomainEventsTable;
}
