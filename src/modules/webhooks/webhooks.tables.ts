// Kysely types of the webhook tables (migrations 2026-11-24T0100-webhooks, 2026-11-24T0110-webhook-deliveries).
import type { Generated } from 'kysely';
import type { CreatedAt, LaterTimestamp, Timestamp, UpdatedAt } from '../../db/types.js';

export interface BrandWebhooksTable {
  id: Generated<string>;
  brand: string;
  topic: string;
  url: string;
  tags: string[] | null;
  /** SecretBox-sealed 32-byte key, hex. */
  key_sealed: string;
  previous_key_sealed: string | null;
  previous_key_until: LaterTimestamp;
  disabled_at: LaterTimestamp;
  disabled_reason: string | null;
  /** First failed attempt since the last delivered one; five days of that disables the webhook. */
  failing_since: LaterTimestamp;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}


export interface WebhooksTables {
  brand_webhooks: BrandWebhooksTable;
}
