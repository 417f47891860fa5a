// Executing a trigger at its fire time (the triggers.execute job, decisions §7): in one transaction, schedule a
// copy of its template campaign for the contact (due_at = the fire time), set executed_at, and for a recurring
// trigger plan next year's. What keeps a contact from getting it (no email, unsubscribed, quota) sets failed_at
// and failure instead, and tells the trigger's user. A retried or stale job finds nothing left to do.
import type { Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { findMailability } from '../contacts/index.js';
import { findCampaign, scheduleCopyIn } from '../emails/index.js';
import { notify } from '../notifications/index.js';
import { nextFireTime } from './fire-time.js';
import { MISSING_DATE, ruleOf, scheduleExecution, stillFiresAt } from './planner.js';
import * as repo from './triggers.repository.js';
import type { TriggerFailure } from './triggers.columns.js';

const NO_EMAIL: TriggerFailure = { code: 'NoEmail', message: 'The contact has no email address' };
const UNSUBSCRIBED: TriggerFailure = {
  code: 'Unsubscribed',
  message: 'The contact has unsubscribed from marketing email',
};
const NO_TEMPLATE: TriggerFailure = { code: 'CampaignDeleted', message: 'The trigger’s email campaign was deleted' };

export async function executeTrigger(deps: Deps, id: string, plannedAt: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.planningRow(trx, id);
    // Executed, failed or deleted meanwhile; or re-planned, and the job of the new time will come.
    if (!row || row.effective_at.toISOString() !== plannedAt) return;
    const now = deps.clock.now();
    if (row.effective_at.getTime() > now.getTime() + 1000) {
      // A worker whose clock runs behind the one that planned (or the database's): wait the rest and run again.
      await scheduleExecution(trx, deps, row, { now });
      return;
    }
    if (!row.contact_live) return repo.softDeleteTriggers(trx, [row.id], now);
    if (!row.contact_date) return fail(trx, deps, row, MISSING_DATE(row.event_type));
    const rule = ruleOf(row, row.contact_date, row.timezone);
    if (!stillFiresAt(rule, row.effective_at)) {
      // The date or the zone changed by a path that did not re-plan: plan again from now.
      const updated = await repo.updateTrigger(trx, row.id, { effective_at: nextFireTime(rule, now) }, now);
      return scheduleExecution(trx, deps, updated);
    }
    const failure = await sendCopy(trx, deps, row);
    if (failure) await fail(trx, deps, row, failure);
    if (row.recurring) await planNextYear(trx, deps, row, rule);
  });
}

/** Schedules the copy and marks the trigger executed; answers why it could not instead. */
async function sendCopy(trx: Transaction<DB>, deps: Deps, row: repo.PlanningRow): Promise<TriggerFailure | null> {
  const contact = await findMailability(trx, row.contact);
  if (contact.emails.length === 0) return NO_EMAIL;
  if (contact.unsubscribed) return UNSUBSCRIBED;
  const template = await findCampaign(trx, row.campaign);
  if (!template) return NO_TEMPLATE;
  try {
    const copy = await scheduleCopyIn(trx, deps, template, row.user, row.contact, row.effective_at);
    await repo.markExecuted(trx, row.id, copy.id, deps.clock.now());
    return null;
  } catch (error) {
    // Over the sender's monthly email quota: a failure of this trigger, not of the job.
    if (error instanceof AppError && error.code === 'TooManyRequests')
      return { code: 'TooManyRequests', message: error.message };
    throw error;
  }
}

async function fail(trx: Transaction<DB>, deps: Deps, row: repo.PlanningRow, failure: TriggerFailure): Promise<void> {
  await repo.markFailed(trx, [row.id], failure, deps.clock.now());
  await notify(trx, deps, {
    recipients: [row.user],
    action: 'Failed',
    subject: row.id,
    subject_class: 'Trigger',
    object: row.contact,
    object_class: 'Contact',
    message: `A scheduled ${row.event_type.replace('_', ' ')} email was not sent: ${failure.message.charAt(0).toLowerCase()}${failure.message.slice(1)}.`,
  });
}

async function planNextYear(
  trx: Transaction<DB>,
  deps: Deps,
  row: repo.PlanningRow,
  rule: ReturnType<typeof ruleOf>,
): Promise<void> {
  const next = await repo.insertTrigger(
    trx,
    {
      brand: row.brand,
      user: row.user,
      created_by: row.created_by,
      contact: row.contact,
      event_type: row.event_type,
      wait_for: row.wait_for,
      time: row.time,
      recurring: true,
      campaign: row.campaign,
      effective_at: nextFireTime(rule, row.effective_at),
      scheduled_after: row.id,
    },
    deps.clock.now(),
  );
  await scheduleExecution(trx, deps, next);
}
