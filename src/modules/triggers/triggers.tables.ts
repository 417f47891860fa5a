// Kysely type of triggers (migration 2026-11-26T0100-triggers).
import type { ColumnType, Generated } from 'kysely';
import type { LaterTimestamp, Timestamp } from '../../db/types.js';

export const TRIGGER_EVENT_TYPES = ['birthday', 'home_anniversary', 'wedding_anniversary'] as const;
export type TriggerEventType = (typeof TRIGGER_EVENT_TYPES)[number];
export const TRIGGER_ACTIONS = ['schedule_email'] as const;
export type TriggerAction = (typeof TRIGGER_ACTIONS)[number];

export interface TriggerFailure {
  code: string;
  message: string;
}

export interface TriggersTable {
  id: Generated<string>;
  brand: string;
  user: string;
  created_by: string;
  contact: string;
  event_type: TriggerEventType;
  action: TriggerAction;
  /** Seconds relative to the event (negative = before). */
  wait_for: number;
  /** Seconds after local midnight (null = 0). */
  time: number | null;
  recurring: boolean;
  /** The template campaign (email_campaigns.template). */
  campaign: string;
  /** The planned fire time. */
  effective_at: Timestamp;
  executed_at: LaterTimestamp;
  failed_at: LaterTimestamp;
  failure: ColumnType<TriggerFailure | null, string | null | undefined, string | null>;
  /** The trigger of the previous year in a recurring chain. */
  scheduled_after: ColumnType<string | null, string | null | undefined, string | null>;
  /** The campaign executing this trigger created for the contact. */
  sent_campaign: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: LaterTimestamp;
}

export interface BrandTriggersTable {
  id: Generated<string>;
  brand: string;
  event_type: TriggerEventType;
  /** Who sends, and whose time zone plans it: the last user who set it. */
  user: string;
  wait_for: number;
  time: number | null;
  subject: string;
  html: string;
  enabled: boolean;
  /** The sweep has sent what fired up to here. */
  swept_until: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BrandTriggerExclusionsTable {
  brand_trigger: string;
  contact: string;
  created_at: Timestamp;
}

export interface BrandTriggerSendsTable {
  brand_trigger: string;
  contact: string;
  /** The occurrence (local date of the event) it was sent for. */
  event_date: ColumnType<string, string, never>;
  campaign: string;
}

export interface TriggersTables {
  triggers: TriggersTable;
  brand_triggers: BrandTriggersTable;
  brand_trigger_exclusions: BrandTriggerExclusionsTable;
  brand_trigger_sends: BrandTriggerSendsTable;
}
