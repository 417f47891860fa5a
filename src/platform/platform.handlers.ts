// What runs the platform's jobs (platform.tasks.ts).
import { handleTask } from '../jobs/handler.js';
import { purgeRateLimitWindowsTask } from './platform.tasks.js';
import { purgeRateLimitWindows } from './rate-limit.js';

export const PLATFORM_HANDLERS = [
  handleTask(purgeRateLimitWindowsTask, async (deps) => {
    const windows = await purgeRateLimitWindows(deps);
    deps.log.info({ windows }, 'purged ended rate-limit windows');
  }),
];
