// Jobs of webhooks (docs/webhooks.md; handlers in webhooks.handlers.ts): the fan-out's safety net, one attempt of
// one delivery, and the purge of old attempts.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';

/**
 * The safety net behind the pumps (pump.ts): each minute a worker drains whatever the outbox still holds,
 * in case no pump is running. Several may run at once: the position lock lets one fan out at a time.
 */
export const fanOutTask = defineTask({
  name: 'webhooks.fan-out',
  payload: Type.Object({}),
  cron: '* * * * *',
  retryLimit: 0,
  expireInSeconds: 2 * 60,
  // Events per fan-out transaction, for this task and the pumps alike: a bulk write of thousands of contacts is
  // fanned out in several commits, so on the embedded database requests interleave with it (ADR 0039).
  chunkRows: 200,
});

/**
 * The queue priority of retries and of first attempts to a webhook that is failing: below every first attempt
 * to a healthy receiver, so a receiver that fails (and whose retries add to the load) never makes the healthy
 * ones wait behind it — they keep their rate and latency while the workers have room for them.
 */
export const BEHIND_PRIORITY = -1;

/** One attempt; the job's own retries only cover our failures (database), receiver failures are scheduled. */
export const deliverTask = defineTask({
  name: 'webhooks.deliver',
  payload: Type.Object({
    delivery: Type.String({ pattern: '^[0-9a-f-]{36}$' }),
    attempt: Type.Integer({ minimum: 1 }),
  }),
  retryLimit: 10,
  retryDelaySeconds: 5,
  // An attempt takes at most 15 s; a job still active after 30 s belongs to a killed worker and runs again
  // (same webhook-id: a duplicate at worst, never a loss).
  expireInSeconds: 30,
  // Attempts mostly wait on receivers: many at once (10 pg-boss workers fetching 16 each). 64 kept up with
  // 924 of 1,000 events/s (p99 1.3 s, queueing); 160 with all of them, p99 0.4 s (bench --only webhooks,
  // docs/webhooks.md). The embedded database is one session that every query queues on, so more than a few
  // there only lengthen that queue.
  concurrency: 160,
  embeddedConcurrency: 16,
});

/** Attempt rows older than 30 days go (the delivery rows stay, with their status). */
export const purgeAttemptsTask = defineTask({
  name: 'webhooks.purge-attempts',
  payload: Type.Object({}),
  cron: '17 3 * * *',
});
