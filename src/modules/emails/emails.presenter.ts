// An email campaign as the API shows it (spec 2.6), with counters from the mail ledger.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { epochSeconds } from '../../lib/clock.js';
import { campaignCounters, campaignEventCounters } from '../../mail/mail.repository.js';
import type { CampaignRow } from './emails.repository.js';
import type { EmailCampaignRecord } from './emails.schemas.js';

const NO_COUNTS = { sent: 0, accepted: 0, rejected: 0, stored: 0 };
const NO_EVENTS = { opened: 0, clicked: 0, unsubscribed: 0, delivered: 0, failed: 0, complained: 0 };

export async function presentCampaigns(db: Kysely<DB>, rows: CampaignRow[]): Promise<EmailCampaignRecord[]> {
  const executed = rows.filter((r) => r.executed_at).map((r) => r.id);
  const counters = await campaignCounters(db, executed);
  const events = await campaignEventCounters(db, executed);
  return rows.map((row) => {
    const counts = counters.get(row.id) ?? NO_COUNTS;
    const tracked = events.get(row.id) ?? NO_EVENTS;
    return {
      id: row.id,
      type: 'email_campaign' as const,
      created_at: epochSeconds(row.created_at),
      updated_at: epochSeconds(row.updated_at),
      deleted_at: row.deleted_at ? epochSeconds(row.deleted_at) : null,
      created_by: row.created_by,
      brand: row.brand,
      subject: row.subject,
      include_signature: row.include_signature,
      html: row.html,
      text: row.text,
      due_at: epochSeconds(row.due_at),
      executed_at: row.executed_at ? epochSeconds(row.executed_at) : null,
      individual: row.individual,
      sent: counts.sent,
      accepted: counts.accepted,
      rejected: counts.rejected,
      // Unique recipients per kind, from tracking links and the delivery-event feed (docs/emails.md).
      delivered: tracked.delivered,
      failed: tracked.failed,
      opened: tracked.opened,
      clicked: tracked.clicked,
      unsubscribed: tracked.unsubscribed,
      complained: tracked.complained,
      stored: counts.stored,
      headers: row.headers,
      to: row.recipients.to,
      cc: row.recipients.cc,
      bcc: row.recipients.bcc,
      google_credential: null,
      extmail_credential: row.extmail_credential,
      thread_key: null,
      failed_at: row.failed_at ? epochSeconds(row.failed_at) : null,
      failed_within: null,
      failure: row.failure,
      notifications_enabled: row.notifications_enabled,
      archive: row.archive,
      tags: row.tags,
      recipients_count: row.recipients_count,
      listed: !row.template,
    };
  });
}

export async function presentCampaign(db: Kysely<DB>, row: CampaignRow): Promise<EmailCampaignRecord> {
  return (await presentCampaigns(db, [row]))[0]!;
}
