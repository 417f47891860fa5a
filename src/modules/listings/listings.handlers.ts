// What runs the listings jobs (listings.tasks.ts).
import { chunkRowsOf } from '../../jobs/task.js';
import { handleTask } from '../../jobs/handler.js';
import { refreshOtherVersions } from './listings.stored-record.js';
import { refreshRecordsTask } from './listings.tasks.js';

export const LISTINGS_HANDLERS = [
  handleTask(refreshRecordsTask, async (deps, _payload, stopping) => {
    const written = await refreshOtherVersions(deps, { stopping, batch: chunkRowsOf(refreshRecordsTask, deps) });
    if (written > 0) deps.log.info({ written }, 'listing record texts written again');
  }),
];
