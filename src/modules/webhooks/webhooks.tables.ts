// Kysely types of the webhook tables (migrations 2026-11-24T0100-webhooks, 2026-11-24T0110-webhook-deliveries).
import type { ColumnType, Generated } from 'kysely';
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

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped';

export interface WebhookOutboxPositionTable {
  id: number;
  tx: ColumnType<string | null, string | null, string | null>;
  event_id: ColumnType<number | null, number | null, number | null>;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhook: string;
  /** First outbox event of the delivery (a Contacts chunk covers several); null for a test ping. */
  event_id: number | null;
  topic: string;
  event: string;
  /** The exact JSON sent, fixed at fan-out: signatures cover it. */
  body: string;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: LaterTimestamp;
  last_status: number | null;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  delivered_at: LaterTimestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery: string;
  attempt: number;
  at: Timestamp;
  http_status: number | null;
  duration_ms: number;
  error: string | null;
  /** The first 1 KiB of the response body. */
  response_excerpt: string | null;
}

export interface WebhooksTables {
  brand_webhooks: BrandWebhooksTable;
  webhook_outbox_position: WebhookOutboxPositionTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
