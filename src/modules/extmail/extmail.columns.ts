// What the JSON and enumerated columns of linked mailboxes hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.
import { sealedColumns } from '../../db/sealed-columns.js';

export type SyncStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** A linked mailbox's provider tokens: sealed at rest. */
export const CREDENTIALS_SEALED = sealedColumns('extmail_credentials', 'id', [
  'access_token_sealed',
  'refresh_token_sealed',
]);
