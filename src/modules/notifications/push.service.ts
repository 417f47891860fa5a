// Push delivery (decisions §16; docs/notifications.md "Push"): notify() records one ledger row per (notification,
// device) and enqueues one job per row in its transaction; a job makes one attempt and records the outcome:
// sent (the recipient's delivered_at), a retry later (5xx/429/network; Retry-After honoured; at most 5 retries
// and never after 24 h), the token deleted (the provider says the device is gone), or failed.
// Idempotent: a job carries (delivery, attempt) and acts only while the row is pending at attempt - 1.
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../platform/deps.js';
import { addSeconds } from '../../lib/clock.js';
import { buildMessage } from './push.message.js';
import { isConfigured, senderFor } from './push.providers.js';
import type { PushResult } from './push.sender.js';
import * as batched from './push.batching.js';
import * as repo from './push.repository.js';
import { pushTask } from './push.tasks.js';

/** The first attempt and at most 5 retries (decisions §16). */
export const MAX_ATTEMPTS = 6;
/** No retry is scheduled later than this after the notification. */
export const GIVE_UP_AFTER_SECONDS = 24 * 3600;
/** Seconds before retry n: 10 s, 40 s, 160 s, ~11 min, ~43 min (±10 %), unless the provider said Retry-After. */
export function retryDelaySeconds(
  attempt: number,
  retryAfter: number | null,
  random: () => number = Math.random,
): number {
  if (retryAfter !== null) return retryAfter;
  return 10 * 4 ** (attempt - 1) * (0.9 + 0.2 * random());
}

/**
 * In notify()'s transaction: one ledger row per device of the recipients (of `app`, or all their apps), and one
 * job per row whose provider is configured; the others are recorded as skipped. Answers how many jobs it queued.
 */
export async function enqueuePushes(
  trx: Transaction<DB>,
  deps: Pick<Deps, 'config' | 'queue' | 'metrics'>,
  notification: { id: string; app: string | null },
  users: string[],
  at: Date,
): Promise<number> {
  const devices = await repo.devicesOf(trx, users, notification.app);
  const rows = await repo.insertDeliveries(
    trx,
    devices.map((device) => ({
      notification: notification.id,
      user: device.user,
      token: device.id,
      provider: device.provider,
      app: device.app,
      status: isConfigured(deps.config, device.provider, device.app) ? 'pending' : 'skipped',
    })),
    at,
  );
  let queued = 0;
  for (const row of rows) {
    if (row.status === 'skipped') {
      deps.metrics.pushes.inc({ provider: row.provider, outcome: 'skipped' });
      continue;
    }
    await deps.queue.enqueue(trx, pushTask, { delivery: row.id, attempt: 1 });
    queued++;
  }
  return queued;
}

/**
 * enqueuePushes for several notifications at once: the same ledger rows and jobs, in a fixed number of statements
 * (one device look-up per app named, one ledger insert, jobs in one enqueue).
 */
export async function enqueuePushesMany(
  trx: Transaction<DB>,
  deps: Pick<Deps, 'config' | 'queue' | 'metrics'>,
  items: { notification: { id: string; app: string | null }; users: string[] }[],
  at: Date,
): Promise<number> {
  const byApp = new Map<string | null, Set<string>>();
  for (const item of items) {
    const users = byApp.get(item.notification.app) ?? new Set<string>();
    for (const user of item.users) users.add(user);
    byApp.set(item.notification.app, users);
  }
  const devicesByApp = new Map<string | null, Awaited<ReturnType<typeof repo.devicesOf>>>();
  for (const [app, users] of byApp) devicesByApp.set(app, await repo.devicesOf(trx, [...users], app));
  const wanted: repo.NewDelivery[] = [];
  for (const item of items) {
    const users = new Set(item.users);
    for (const device of devicesByApp.get(item.notification.app) ?? []) {
      if (!users.has(device.user)) continue;
      wanted.push({
        notification: item.notification.id,
        user: device.user,
        token: device.id,
        provider: device.provider,
        app: device.app,
        status: isConfigured(deps.config, device.provider, device.app) ? 'pending' : 'skipped',
      });
    }
  }
  const rows = await repo.insertDeliveries(trx, wanted, at);
  for (const row of rows)
    if (row.status === 'skipped') deps.metrics.pushes.inc({ provider: row.provider, outcome: 'skipped' });
  const pending = rows.filter((row) => row.status !== 'skipped');
  await deps.queue.enqueueMany(
    trx,
    pushTask,
    pending.map((row) => ({ delivery: row.id, attempt: 1 })),
  );
  return pending.length;
}

export async function attemptPush(deps: Deps, deliveryId: string, attempt: number): Promise<void> {
  const row = await batched.deliveryForAttempt(deps.db, deliveryId);
  if (!row || row.status !== 'pending' || row.attempts !== attempt - 1) return; // handled already: a repeated job
  const now = deps.clock.now();
  const base = { attempts: attempt, next_attempt_at: null, sent_at: null, updated_at: now };
  if (row.channel_encrypted === null || row.notification_deleted_at !== null) {
    // The device was unregistered (or moved to another user) since, or the notification was withdrawn.
    const reason = row.channel_encrypted === null ? 'the device was unregistered' : 'the notification was deleted';
    await repo.advanceDelivery(deps.db, row.id, row.attempts, {
      ...base,
      status: 'dropped',
      last_status: null,
      last_error: reason,
    });
    return;
  }
  const sender = senderFor(deps, row.provider, row.app);
  if (!sender) {
    await repo.advanceDelivery(deps.db, row.id, row.attempts, {
      ...base,
      status: 'skipped',
      last_status: null,
      last_error: `${row.provider} is not configured for app ${row.app}`,
    });
    deps.metrics.pushes.inc({ provider: row.provider, outcome: 'skipped' });
    return;
  }
  const result = await sender.send(
    deps.secrets.decrypt(row.channel_encrypted),
    buildMessage(row, Number(row.unseen), now),
  );
  await record(deps, row, attempt, now, result);
}

async function record(deps: Deps, row: repo.AttemptRow, attempt: number, at: Date, result: PushResult): Promise<void> {
  const expected = attempt - 1;
  const status = result.status;
  let outcome: 'sent' | 'retried' | 'dead_token' | 'failed' = result.outcome === 'retry' ? 'retried' : result.outcome;
  if (result.outcome === 'sent') {
    // The common case in one statement (no transaction), shared with the pushes sent in the same turn: the row
    // and the recipient's delivered_at.
    if (await batched.markSent(deps.db, { id: row.id, expected, attempts: attempt, last_status: result.status, at }))
      deps.metrics.pushes.inc({ provider: row.provider, outcome });
    return;
  }
  await deps.db.transaction().execute(async (trx) => {
    const base = { attempts: attempt, last_status: status, sent_at: null, next_attempt_at: null, updated_at: at };
    if (result.outcome === 'dead_token') {
      if (
        !(await repo.advanceDelivery(trx, row.id, expected, {
          ...base,
          status: 'dead_token',
          last_error: result.error,
        }))
      )
        return;
      if (row.token) await repo.deleteToken(trx, row.token);
    } else if (result.outcome === 'retry') {
      const next = addSeconds(at, retryDelaySeconds(attempt, result.retryAfter));
      const tooLate = next.getTime() - row.created_at.getTime() > GIVE_UP_AFTER_SECONDS * 1000;
      if (attempt >= MAX_ATTEMPTS || tooLate) {
        outcome = 'failed';
        await repo.advanceDelivery(trx, row.id, expected, {
          ...base,
          status: 'failed',
          last_error: `${result.error} (gave up after ${attempt} attempts)`,
        });
        return;
      }
      if (
        !(await repo.advanceDelivery(trx, row.id, expected, {
          ...base,
          status: 'pending',
          last_error: result.error,
          next_attempt_at: next,
        }))
      )
        return;
      await deps.queue.enqueue(trx, pushTask, { delivery: row.id, attempt: attempt + 1 }, { startAfter: next });
    } else {
      await repo.advanceDelivery(trx, row.id, expected, { ...base, status: 'failed', last_error: result.error });
    }
  });
  deps.metrics.pushes.inc({ provider: row.provider, outcome });
  if (outcome === 'failed')
    deps.log.warn({ delivery: row.id, provider: row.provider, status, error: result.error }, 'push failed');
}
