// Kysely types of the notification tables (migration 2026-11-24T0100-notifications).
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, LaterTimestamp, Timestamp, UpdatedAt } from '../../db/types.js';

type Json<T> = ColumnType<T, string | null | undefined, string | null>;
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface NotificationsTable {
  id: Generated<string>;
  action: string;
  notification_type: string;
  message: string;
  title: Optional<string>;
  object: Optional<string>;
  object_class: Optional<string>;
  subject: Optional<string>;
  subject_class: Optional<string>;
  auxiliary_object: Optional<string>;
  auxiliary_object_class: Optional<string>;
  auxiliary_subject: Optional<string>;
  auxiliary_subject_class: Optional<string>;
  extra_object_class: Optional<string>;
  extra_subject_class: Optional<string>;
  room: Optional<string>;
  recommendation: Optional<string>;
  exclude: Optional<string[]>;
  data: Json<Record<string, unknown> | null>;
  sound: Optional<string>;
  app: Optional<string>;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  phone_number: Optional<string>;
  created_at: Timestamp;
  updated_at: UpdatedAt;
  deleted_at: LaterTimestamp;
  /**
   * The notification's part of its feed record as JSON without its closing brace (the feed appends the recipient's
   * state), written by a trigger (migrations 2026-11-28T0600 and T0900).
   */
  record_head: ColumnType<string, never, never>;
}

export interface NotificationRecipientsTable {
  notification: string;
  user: string;
  seq: ColumnType<number, never, never>;
  seen_at: LaterTimestamp;
  acked_at: LaterTimestamp;
  delivered_at: LaterTimestamp;
  deleted_at: LaterTimestamp;
  created_at: CreatedAt;
  /** `seen`, `seen_at`, `acked_at`, `delivered_at` as a JSON fragment for the feed, written by a trigger (2026-11-28T0910). */
  state_json: ColumnType<string, never, never>;
}

/** A recipient's feed counts, kept by triggers (migration 2026-11-26T0200-notification-counts). */
export interface NotificationCountsTable {
  user: string;
  total: ColumnType<number, never, never>;
  unseen: ColumnType<number, never, never>;
}

export type PushProvider = 'webpush' | 'fcm' | 'apns';

export interface NotificationTokensTable {
  id: Generated<string>;
  user: string;
  app: string;
  provider: PushProvider;
  channel_hash: Buffer;
  channel_encrypted: string;
  device_id: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type PushStatus = 'pending' | 'sent' | 'skipped' | 'dead_token' | 'failed' | 'dropped';

/** One push of one notification to one device (migration 2026-11-25T0100-push-deliveries). */
export interface PushDeliveriesTable {
  id: Generated<string>;
  notification: string;
  user: string;
  token: string | null;
  provider: PushProvider;
  app: string;
  status: PushStatus;
  attempts: ColumnType<number, number | undefined, number>;
  last_status: Optional<number>;
  last_error: Optional<string>;
  next_attempt_at: Optional<Date>;
  sent_at: Optional<Date>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NotificationsTables {
  notifications: NotificationsTable;
  notification_recipients: NotificationRecipientsTable;
  notification_counts: NotificationCountsTable;
  notification_tokens: NotificationTokensTable;
  push_deliveries: PushDeliveriesTable;
}
