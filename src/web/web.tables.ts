// Tables owned by the partner authorization pages.
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Timestamp, UpdatedAt } from '../db/types.js';

export interface WebSessionsTable {
  id: Generated<string>;
  session_hash: Buffer;
  user: string | null;
  mfa_passed: Generated<boolean>;
  csrf_secret: string;
  /** JSON of a PendingAuthorization (src/web/authorization-request.ts); written as a JSON string. */
  pending: ColumnType<unknown, string | null, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  expires_at: Timestamp;
}

export interface WebTables {
  web_sessions: WebSessionsTable;
}
