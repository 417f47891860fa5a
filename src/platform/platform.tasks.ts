// Jobs of the platform pieces: the hourly purge of ended rate-limit windows.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../jobs/task.js';
import { purgeRateLimitWindows } from './rate-limit.js';

export const purgeRateLimitWindowsTask = defineTask({
  name: 'platform.purge-rate-limit-windows',
  payload: Type.Object({}),
  cron: '23 * * * *',
  retryLimit: 2,
  handle: async (deps) => {
    const windows = await purgeRateLimitWindows(deps);
    deps.log.info({ windows }, 'purged ended rate-limit windows');
  },
});
