// Job handlers of webhooks (docs/webhooks.md): the fan-out pump and one attempt of one delivery.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';
import { attemptDelivery } from './deliveries.service.js';
import { fanOutOnce } from './fanout.js';
import { purgeOldAttempts } from './log.service.js';

/** How long one run of the pump keeps reading the outbox (the cron starts the next run each minute). */
const PUMP_SECONDS = 55;
const IDLE_WAIT_MS = 200;

/**
 * Reads the outbox into deliveries for most of a minute, then makes way for the next cron run. Several
 * worker processes may each run one: the position lock lets one fan out at a time, the rest wait idle.
 */
export const fanOutTask = defineTask({
  name: 'webhooks.fan-out',
  payload: Type.Object({}),
  cron: '* * * * *',
  retryLimit: 0,
  expireInSeconds: 2 * 60,
  handle: async (deps) => {
    const until = performance.now() + PUMP_SECONDS * 1000;
    while (performance.now() < until) {
      const consumed = await fanOutOnce(deps);
      if (consumed === 0) await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS));
    }
  },
});

/** One attempt; the job's own retries only cover our failures (database), receiver failures are scheduled. */
export const deliverTask = defineTask({
  name: 'webhooks.deliver',
  payload: Type.Object({ delivery: Type.String({ pattern: '^[0-9a-f-]{36}$' }), attempt: Type.Integer({ minimum: 1 }) }),
  retryLimit: 10,
  retryDelaySeconds: 5,
  expireInSeconds: 60,
  concurrency: 16,
  handle: async (deps, payload) => attemptDelivery(deps, payload.delivery, payload.attempt),
});

/** Attempt rows older than 30 days go (the delivery rows stay, with their status). */
export const purgeAttemptsTask = defineTask({
  name: 'webhooks.purge-attempts',
  payload: Type.Object({}),
  cron: '17 3 * * *',
  handle: async (deps) => {
    const purged = await purgeOldAttempts(deps);
    if (purged > 0) deps.log.info({ purged }, 'purged old webhook attempts');
  },
});
