// What runs the external mail jobs (extmail.tasks.ts).
import { handleTask } from '../../jobs/handler.js';
import { syncDueTask, syncTask } from './extmail.tasks.js';
import { queueDueSyncs, runSync } from './sync.service.js';

export const EXTMAIL_HANDLERS = [
  handleTask(syncTask, (deps, payload, stopping) => runSync(deps, payload.credential, stopping)),
  handleTask(syncDueTask, async (deps) => {
    const queued = await queueDueSyncs(deps);
    if (queued > 0) deps.log.info({ queued }, 'extmail: queued due syncs');
  }),
];
