// What runs the saved-search jobs (matching.tasks.ts, delivery.tasks.ts).
import { chunkRowsOf } from '../../jobs/task.js';
import { handleTask } from '../../jobs/handler.js';
import { deliverMatches, runDueDigests } from './delivery.service.js';
import { deliverMatchesTask, digestsTask } from './delivery.tasks.js';
import { matchEvents } from './matching.service.js';
import { matchEventsTask } from './matching.tasks.js';

/** How long one digest run keeps going (the cron starts the next each minute). */
const DIGEST_RUN_SECONDS = 50;

export const SAVED_SEARCHES_HANDLERS = [
  handleTask(matchEventsTask, (deps, payload) => matchEvents(deps, payload.events, chunkRowsOf(matchEventsTask, deps))),
  handleTask(deliverMatchesTask, (deps, payload) =>
    deliverMatches(deps, payload.matches, { notify: payload.notified !== true }),
  ),
  handleTask(digestsTask, async (deps, _payload, stopping) => {
    const until = performance.now() + DIGEST_RUN_SECONDS * 1000;
    while (performance.now() < until && !stopping.aborted) {
      if ((await runDueDigests(deps, 100, stopping)) === 0) break;
    }
  }),
];
