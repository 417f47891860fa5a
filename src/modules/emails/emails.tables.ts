// Kysely type of email campaigns (migration 2026-11-24T0001-email-campaigns).
import type { ColumnType, Generated } from 'kysely';
import type { LaterTimestamp, Timestamp } from '../../db/types.js';

export type RecipientType = 'Email' | 'Contact' | 'Tag' | 'Brand';

/** One entry of `to` / `cc` / `bcc` as the client sent it. */
export interface RecipientSpec {
  recipient_type: RecipientType;
  email?: string;
  contact?: string;
  tag?: string;
  brand?: string;
}

export interface CampaignRecipients {
  to: RecipientSpec[];
  cc: RecipientSpec[];
  bcc: RecipientSpec[];
}

type Json<T> = ColumnType<T, string, string>;

export interface EmailCampaignsTable {
  id: Generated<string>;
  brand: string;
  created_by: string;
  subject: string;
  html: string;
  text: string | null;
  include_signature: boolean;
  individual: boolean;
  headers: Json<Record<string, string>>;
  recipients: Json<CampaignRecipients>;
  notifications_enabled: boolean;
  archive: boolean;
  tags: string[];
  due_at: Timestamp;
  executed_at: LaterTimestamp;
  failed_at: LaterTimestamp;
  failure: ColumnType<{ code: string; message: string } | null, string | null, string | null>;
  recipients_count: number | null;
  /** Sending in progress: the key (emailKey) of the last recipient queued so far; null before the first chunk. */
  queued_through: ColumnType<string | null, string | null | undefined, string | null>;
  /** email_quota: `YYYY-MM` of due_at in the sender's time zone (individual campaigns only). */
  sender_month: ColumnType<string | null, string | null | undefined, string | null>;
  planned_recipients: ColumnType<number | null, number | null | undefined, number | null>;
  /** Send through this linked mailbox (Graph sendMail) instead of SMTP (docs/extmail.md). */
  extmail_credential: ColumnType<string | null, string | null | undefined, string | null>;
  /** A trigger's template (modules/triggers): never sent on its own, and not listed with the brand's campaigns. */
  template: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: LaterTimestamp;
}

export interface EmailsTables {
  email_campaigns: EmailCampaignsTable;
}
