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

export interface NotificationsTables {
  notifications: NotificationsTable;
  notification_recipients: NotificationRecipientsTable;
  notification_tokens: NotificationTokensTable;
}
