// What the JSON and enumerated columns of notifications and pushes hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.
import { sealedColumns } from '../../db/sealed-columns.js';

export type PushProvider = 'webpush' | 'fcm' | 'apns';

export type PushStatus = 'pending' | 'sent' | 'skipped' | 'dead_token' | 'failed' | 'dropped';

/** The push channel of a device token (its address, or a Web Push subscription with its keys): sealed at rest. */
export const TOKENS_SEALED = sealedColumns('notification_tokens', 'id', ['channel_encrypted']);
