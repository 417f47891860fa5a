// Kysely types of the external mail tables (migrations 2026-11-25T0400-extmail-credentials, 2026-11-25T0401-extmail-sync).
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, LaterTimestamp, Timestamp, UpdatedAt } from '../../db/types.js';

type Json<T> = ColumnType<T, string | null, string | null>;

export interface ExtmailCredentialsTable {
  id: Generated<string>;
  user: string;
  brand: string;
  provider: string;
  /** The account's id at the provider (Graph `/me` id). */
  remote_id: string;
  email: string;
  /** The provider's name of the account resource (`users/<id>` for Graph). */
  resource_name: string;
  display_name: string;
  first_name: string | null;
  last_name: string | null;
  /** The account photo as a `data:` URL (at most 256 KiB of image), or null. */
  photo: string | null;
  scope: Json<string[] | null>;
  scope_summary: Json<string[] | null>;
  revoked: ColumnType<boolean, boolean | undefined, boolean>;
  /** SecretBox-sealed provider tokens; null once the credential is deleted. */
  access_token_sealed: string | null;
  refresh_token_sealed: string | null;
  access_expires_at: LaterTimestamp;
  contacts_sync_token: string | null;
  cfolders_sync_token: string | null;
  send_email_after: LaterTimestamp;
  /** State of the latest sync job (migration 2026-11-25T0401-extmail-sync); null before the first. */
  sync_status: ColumnType<SyncStatus | null, SyncStatus | null | undefined, SyncStatus | null>;
  sync_queued_at: LaterTimestamp;
  /** Also the lease of a running sync: a run older than the lease may be taken over. */
  sync_started_at: LaterTimestamp;
  sync_finished_at: LaterTimestamp;
  sync_error: ColumnType<string | null, string | null | undefined, string | null>;
  last_synced_at: LaterTimestamp;
  /** The nextLink of an unfinished delta round: a stopped sync resumes here. */
  contacts_sync_cursor: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export type SyncStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface ExtmailContactsTable {
  credential: string;
  remote_id: string;
  contact: string;
}

export interface ExtmailLinkStatesTable {
  nonce: string;
  expires_at: Timestamp;
}

export interface ExtmailTables {
  extmail_credentials: ExtmailCredentialsTable;
  extmail_link_states: ExtmailLinkStatesTable;
  extmail_contacts: ExtmailContactsTable;
}
