// Planning triggers (decisions §7): when each fires, and keeping that true when what it depends on changes — the
// contact's date (or the contact itself) and the trigger user's time zone. Every change re-plans in the
// transaction that made it, and the execution job checks again at fire time (execute.ts).
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { nextFireTime, type FireRule } from './fire-time.js';
import * as repo from './triggers.repository.js';
import { executeTriggerTask } from './triggers.tasks.js';

type PlanDeps = Pick<Deps, 'clock' | 'queue'>;

export const MISSING_DATE = (eventType: string) => ({
  code: 'MissingDate',
  message: `The contact has no ${eventType.replace('_', ' ')} any more`,
});

export function ruleOf(trigger: Pick<repo.TriggerRow, 'time' | 'wait_for'>, date: string, timeZone: string): FireRule {
  return { date, timeZone, time: trigger.time, waitFor: trigger.wait_for };
}

/** Whether the rule, on today's data, still fires at `at` (the occurrence planned then has not moved). */
export function stillFiresAt(rule: FireRule, at: Date): boolean {
  return nextFireTime(rule, new Date(at.getTime() - 1)).getTime() === at.getTime();
}

/** Enqueues the execution at the fire time; `early`: the job ran before it by this worker's clock, and waits the rest. */
export async function scheduleExecution(
  trx: Kysely<DB>,
  deps: PlanDeps,
  row: Pick<repo.TriggerRow, 'id' | 'effective_at'>,
  early?: { now: Date },
): Promise<void> {
  const when = early
    ? { startIn: (row.effective_at.getTime() - early.now.getTime()) / 1000 }
    : { startAfter: row.effective_at };
  await deps.queue.enqueue(
    trx,
    executeTriggerTask,
    { trigger: row.id, effective_at: row.effective_at.toISOString() },
    when,
  );
}

/**
 * Re-plans pending triggers whose fire time moved; fails those whose date is gone, deletes those of deleted contacts.
 * A few statements whatever the number of triggers (one user may have thousands): the request that changed the
 * zone or the dates answers with every trigger already re-planned, and on the embedded database it holds the
 * session for milliseconds, not for a statement per trigger (ADR 0039).
 */
async function replan(trx: Transaction<DB>, deps: PlanDeps, rows: repo.PlanningRow[]): Promise<void> {
  const now = deps.clock.now();
  await repo.softDeleteTriggers(
    trx,
    rows.filter((r) => !r.contact_live).map((r) => r.id),
    now,
  );
  const live = rows.filter((r) => r.contact_live);
  const dateless = live.filter((r) => !r.contact_date);
  // One statement per event type (the failure names the missing date).
  for (const eventType of new Set(dateless.map((r) => r.event_type))) {
    const ids = dateless.filter((r) => r.event_type === eventType).map((r) => r.id);
    await repo.markFailed(trx, ids, MISSING_DATE(eventType), now);
  }
  const moves = live.flatMap((row) => {
    if (!row.contact_date) return [];
    const rule = ruleOf(row, row.contact_date, row.timezone);
    return stillFiresAt(rule, row.effective_at) ? [] : [{ id: row.id, effective_at: nextFireTime(rule, now) }];
  });
  await repo.moveFireTimes(trx, moves, now);
  // Each job waits for its own trigger's fire time, which its payload carries.
  await deps.queue.enqueueMany(
    trx,
    executeTriggerTask,
    moves.map((move) => ({ trigger: move.id, effective_at: move.effective_at.toISOString() })),
    { startAfter: (job) => new Date(job.effective_at) },
  );
}

/** Contacts' dates changed, or the contacts were deleted: their pending triggers follow. */
export async function replanTriggersOfContacts(
  trx: Transaction<DB>,
  deps: PlanDeps,
  contacts: readonly string[],
): Promise<void> {
  await replan(trx, deps, await repo.pendingOfContacts(trx, [...new Set(contacts)]));
}

/** The user's time zone changed: their pending triggers fire at local times of the new zone. */
export async function replanTriggersOfUser(trx: Transaction<DB>, deps: PlanDeps, user: string): Promise<void> {
  await replan(trx, deps, await repo.pendingOfUser(trx, user));
}
