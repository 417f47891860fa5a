// Kysely type of the mail ledger (migration 2026-11-24T0000-mail-ledger).
import type { ColumnType, Generated } from 'kysely';
import type { LaterTimestamp } from '../db/types.js';

export type MailState = 'queued' | 'sending' | 'sent' | 'refused' | 'failed';

export interface MailMessagesTable {
  id: Generated<string>;
  campaign: string | null;
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
}

export interface MailTables {
  mail_messages: MailMessagesTable;
}
