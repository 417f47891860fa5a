// Kysely type of the mail ledger (migration 2026-11-24T0000-mail-ledger).
import type { ColumnType, Generated } from 'kysely';
import type { LaterTimestamp } from '../db/types.js';

export type MailState = 'queued' | 'sending' | 'sent' | 'refused' | 'failed';

export interface MailMessagesTable {
  id: Generated<string>;
  campaign: string | null;
  brand: string | null;
  contact: string | null;
  purpose: string;
  message_id: string;
  from_address: string;
  to_addresses: string[];
  cc_addresses: string[];
  bcc_addresses: string[];
  subject: string;
  html: string | null;
  text_body: string | null;
  headers: ColumnType<Record<string, string>, string, string>;
  state: ColumnType<MailState, MailState | undefined, MailState>;
  attempts: Generated<number>;
  smtp_response: string | null;
  accepted: ColumnType<string[], string[] | undefined, string[]>;
  rejected: ColumnType<string[], string[] | undefined, string[]>;
  last_error: string | null;
  created_at: ColumnType<Date, Date | undefined, Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  sent_at: LaterTimestamp;
  /** A send job holds the message until then (null: nobody does; a retry may claim it). */
  claimed_until: LaterTimestamp;
  /** Planned for later (queueMessages' startAfter): the sweeper leaves it alone until then. */
  not_before: LaterTimestamp;
  /** Sent through this linked mailbox (Graph sendMail) instead of SMTP (docs/extmail.md). */
  extmail_credential: ColumnType<string | null, string | null | undefined, string | null>;
}

export type MailEventKind = 'opened' | 'clicked' | 'unsubscribed' | 'delivered' | 'failed' | 'complained';

export interface MailEventsTable {
  id: Generated<string>;
  message: string;
  campaign: string | null;
  kind: MailEventKind;
  recipient: string;
  detail: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  occurred_at: Date;
  created_at: Date;
}

export interface MailUnsubscribesTable {
  brand: string;
  email_key: string;
  message: string | null;
  created_at: Date;
}

export interface MailTables {
  mail_messages: MailMessagesTable;
  mail_events: MailEventsTable;
  mail_unsubscribes: MailUnsubscribesTable;
}
