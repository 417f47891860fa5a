// What the JSON and enumerated columns of webhook deliveries hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.
import { sealedColumns } from '../../db/sealed-columns.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped';

/** A webhook's signing key, and the one a key rotation replaced (its grace period): sealed at rest. */
export const WEBHOOKS_SEALED = sealedColumns('brand_webhooks', 'id', ['key_sealed', 'previous_key_sealed']);
