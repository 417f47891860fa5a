// email_quota (decisions §15): the recipients of a sender's `individual` campaigns in one brand may not exceed the
// sender's users.email_quota (30000) per calendar month in the sender's time zone — the month of the campaign's
// due_at. A campaign not yet sent counts the recipients resolved when it was planned; a sent one its
// recipients_count. Over it → 429 with Retry-After = seconds until that month is over.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import { monthKey, startOfNextMonth } from '../../lib/zoned-time.js';
import { lockUserEmailQuota } from '../users/index.js';
import { quotaUsed, type CampaignFields, type QuotaColumns } from './emails.repository.js';
import { resolveRecipients } from './emails.send.js';

export const QUOTA_MESSAGE = 'Maximum marketing email quota per month exceeded.';

export const NOT_COUNTED: QuotaColumns = { sender_month: null, planned_recipients: null };

/**
 * Checks the quota for a campaign about to be written (in `trx`; the sender's row is locked so two campaigns
 * planned at once cannot both slip under it) and answers the columns that make it count.
 */
export async function checkQuota(
  trx: Kysely<DB>,
  sender: string,
  brand: string,
  fields: CampaignFields,
  now: Date,
  options: { current?: string; planned?: number } = {},
): Promise<QuotaColumns> {
  if (!fields.individual) return NOT_COUNTED;
  const user = await lockUserEmailQuota(trx, sender);
  const month = monthKey(fields.due_at, user.timezone);
  // A caller that already knows its recipients (a trigger's contacts) spares resolving them again.
  const planned = options.planned ?? (await resolveRecipients(trx, { brand, recipients: fields.recipients })).length;
  const used = await quotaUsed(trx, sender, brand, month, options.current);
  if (used + planned > user.email_quota) {
    throw errors.tooManyRequests(
      (startOfNextMonth(month, user.timezone).getTime() - now.getTime()) / 1000,
      QUOTA_MESSAGE,
    );
  }
  return { sender_month: month, planned_recipients: planned };
}
