// A trigger as the API shows it (spec 2.6), with `trigger.campaign` embedding its template campaign.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { epochSeconds } from '../../lib/clock.js';
import { presentCampaigns, campaignsByIds } from '../emails/index.js';
import type { EmailCampaignRecord } from '../emails/emails.schemas.js';
import type { TriggerRow } from './triggers.repository.js';
import type { TriggerRecord } from './triggers.schemas.js';

const seconds = (at: Date | null) => (at ? epochSeconds(at) : null);

export function presentTrigger(row: TriggerRow, campaign: EmailCampaignRecord | null = null): TriggerRecord {
  return {
    id: row.id,
    type: 'trigger',
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
    deleted_at: seconds(row.deleted_at),
    executed_at: seconds(row.executed_at),
    failed_at: seconds(row.failed_at),
    effective_at: epochSeconds(row.effective_at),
    user: row.user,
    created_by: row.created_by,
    brand: row.brand,
    event_type: row.event_type,
    action: row.action,
    wait_for: row.wait_for,
    time: row.time,
    recurring: row.recurring,
    failure: row.failure,
    contact: row.contact,
    campaign: campaign ?? row.campaign,
    sent_campaign: row.sent_campaign,
    flow_step: null,
    brand_event: null,
    scheduled_after: row.scheduled_after,
    origin: null,
  };
}

export async function presentTriggers(
  db: Kysely<DB>,
  rows: TriggerRow[],
  associations: Set<string>,
): Promise<TriggerRecord[]> {
  if (!associations.has('trigger.campaign')) return rows.map((row) => presentTrigger(row));
  const campaigns = await presentCampaigns(db, await campaignsByIds(db, [...new Set(rows.map((r) => r.campaign))]));
  const byId = new Map(campaigns.map((c) => [c.id, c]));
  return rows.map((row) => presentTrigger(row, byId.get(row.campaign) ?? null));
}
