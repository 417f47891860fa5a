// The brand-trigger sweep (triggers.brand-sweep, every minute on any number of workers): for each enabled brand
// trigger, the occurrences whose fire time passed since it last looked (swept_until), and for each one campaign
// per chunk of contacts of the brand with that date. The trigger's row is locked (SKIP LOCKED: one worker per
// trigger) and swept_until moves in the transaction that schedules its last chunk; brand_trigger_sends keeps a
// contact from getting one occurrence twice. An occurrence more than two days past (a worker down that long) is
// not sent late.
import type { Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { wallClock, zonedTime } from '../../lib/zoned-time.js';
import { scheduleForContactsIn } from '../emails/index.js';
import { notify } from '../notifications/index.js';
import * as repo from './brand-triggers.repository.js';

const LATEST_LATE_SEND_MS = 2 * 86_400_000;
const DAY_MS = 86_400_000;

export interface Occurrence {
  /** The local date of the event, `YYYY-MM-DD`. */
  eventDate: string;
  /** `MM-DD` of the contacts' dates it is for (Feb 28 of a common year also stands for Feb 29). */
  monthDays: string[];
  fireAt: Date;
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const pad = (n: number) => String(n).padStart(2, '0');

/** The occurrences of a brand trigger's rule whose fire time is in (from, to]. */
export function occurrencesFiring(
  rule: { time: number | null; wait_for: number },
  timeZone: string,
  from: Date,
  to: Date,
): Occurrence[] {
  const offset = ((rule.time ?? 0) + rule.wait_for) * 1000;
  // Event dates whose local midnight lies within a day of the window moved back by the offset.
  const first = wallClock(new Date(from.getTime() - offset - DAY_MS), timeZone);
  const last = wallClock(new Date(to.getTime() - offset + DAY_MS), timeZone);
  const occurrences: Occurrence[] = [];
  for (
    let day = Date.UTC(first.year, first.month - 1, first.day);
    day <= Date.UTC(last.year, last.month - 1, last.day);
    day += DAY_MS
  ) {
    const date = new Date(day);
    const [year, month, dayOfMonth] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    const fireAt = zonedTime(year, month, dayOfMonth, (rule.time ?? 0) + rule.wait_for, timeZone);
    if (fireAt.getTime() <= from.getTime() || fireAt.getTime() > to.getTime()) continue;
    const monthDay = `${pad(month)}-${pad(dayOfMonth)}`;
    occurrences.push({
      eventDate: `${year}-${monthDay}`,
      monthDays: monthDay === '02-28' && !isLeap(year) ? ['02-28', '02-29'] : [monthDay],
      fireAt,
    });
  }
  return occurrences;
}

/**
 * An occurrence's contacts still to schedule, found by the pass's first look at it and kept for its next chunks, by
 * `trigger event-date`. Finding them again for every chunk read the sends made so far once per contact (no plan
 * of the embedded database, which has no statistics, does better): 3,200 contacts took 0.8 s a chunk. A chunk's
 * contacts are checked again in its own transaction, so an exclusion or unsubscribe made meanwhile still counts.
 */
type PassMemory = Map<string, readonly string[]>;

/**
 * Schedules the trigger's due occurrences, at most `chunkRows` contacts in this transaction. Answers how many
 * emails it scheduled, and whether contacts are left (`more`): then the trigger keeps its swept_until and is swept
 * again at once, in the next transaction, where the contacts already sent are left out (brand_trigger_sends).
 */
async function sweepOne(
  trx: Transaction<DB>,
  deps: Deps,
  trigger: repo.BrandTriggerRow & { timezone: string },
  now: Date,
  chunkRows: number,
  memory: PassMemory,
): Promise<{ scheduled: number; more: boolean }> {
  let scheduled = 0;
  const from = new Date(Math.max(trigger.swept_until.getTime(), now.getTime() - LATEST_LATE_SEND_MS));
  for (const occurrence of occurrencesFiring(trigger, trigger.timezone, from, now)) {
    const key = `${trigger.id} ${occurrence.eventDate}`;
    const remembered = memory.get(key);
    memory.delete(key);
    const contacts =
      remembered ?? (await repo.contactsToSend(trx, trigger, occurrence.monthDays, occurrence.eventDate));
    const rest = contacts.slice(chunkRows);
    // Remembered contacts are checked again: an exclusion or unsubscribe made since still counts.
    const head = contacts.slice(0, chunkRows);
    const chunk =
      remembered && head.length > 0
        ? await repo.contactsToSend(trx, trigger, occurrence.monthDays, occurrence.eventDate, head)
        : head;
    if (chunk.length > 0) {
      const content = {
        subject: trigger.subject,
        html: trigger.html,
        text: null,
        include_signature: false,
        headers: {},
        notifications_enabled: false,
        archive: false,
        tags: [],
      };
      try {
        const campaign = await scheduleForContactsIn(
          trx,
          deps,
          trigger.brand,
          trigger.user,
          content,
          chunk,
          occurrence.fireAt,
        );
        await repo.recordSends(trx, trigger.id, chunk, occurrence.eventDate, campaign.id);
        scheduled += chunk.length;
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'TooManyRequests')) throw error;
        // The rest of the occurrence is given up (the quota is monthly): the pass moves on and does not come back.
        await notify(trx, deps, {
          recipients: [trigger.user],
          action: 'Failed',
          subject: trigger.id,
          subject_class: 'BrandTrigger',
          message: `The ${trigger.event_type.replace('_', ' ')} emails of ${occurrence.eventDate} (${contacts.length}) were not sent: your monthly marketing email quota is used up.`,
        });
        continue;
      }
    }
    if (rest.length > 0) {
      memory.set(key, rest);
      return { scheduled, more: true };
    }
  }
  await repo.setSweptUntil(trx, trigger.id, now);
  return { scheduled, more: false };
}

/**
 * One pass: sweeps every enabled brand trigger up to the instant the pass started, in transactions of at most
 * `chunkRows` contacts, and ends when none is left before that instant (or the worker stops). Answers how many
 * triggers it swept to the end.
 *
 * The instant is fixed for the whole pass on purpose (ADR 0039): a pass that read the clock afresh for each trigger
 * found the trigger it had just swept due again a millisecond later and never ended while any trigger was enabled;
 * on the embedded database that froze the server. What falls due after the start is the next pass's work.
 */
export async function sweepBrandTriggers(deps: Deps, stopping: AbortSignal, chunkRows: number): Promise<number> {
  const until = deps.clock.now();
  const memory: PassMemory = new Map();
  let swept = 0;
  while (!stopping.aborted) {
    const result = await deps.db.transaction().execute(async (trx) => {
      const trigger = await repo.nextToSweep(trx, until);
      if (!trigger) return null;
      return { eventType: trigger.event_type, ...(await sweepOne(trx, deps, trigger, until, chunkRows, memory)) };
    });
    if (!result) break;
    if (!result.more) swept++;
    // Counted once committed: a sweep that rolls back is done again, and counted then.
    if (result.scheduled > 0) deps.metrics.brandTriggerEmails.inc({ event_type: result.eventType }, result.scheduled);
  }
  return swept;
}
