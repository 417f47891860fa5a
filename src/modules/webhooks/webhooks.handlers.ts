// What runs the webhook jobs (webhooks.tasks.ts).
import { chunkRowsOf } from '../../jobs/task.js';
import { handleTask } from '../../jobs/handler.js';
import { attemptDelivery } from './deliveries.service.js';
import { fanOutOnce } from './fanout.js';
import { purgeOldAttempts } from './log.service.js';
import { deliverTask, fanOutTask, purgeAttemptsTask } from './webhooks.tasks.js';

export const WEBHOOKS_HANDLERS = [
  handleTask(fanOutTask, async (deps, _payload, stopping) => {
    while (!stopping.aborted && (await fanOutOnce(deps, chunkRowsOf(fanOutTask, deps))) > 0);
  }),
  handleTask(deliverTask, (deps, payload) => attemptDelivery(deps, payload.delivery, payload.attempt)),
  handleTask(purgeAttemptsTask, async (deps) => {
    const purged = await purgeOldAttempts(deps);
    if (purged > 0) deps.log.info({ purged }, 'purged old webhook attempts');
  }),
];
