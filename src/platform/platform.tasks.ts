// Jobs of the platform pieces: the hourly purge of ended rate-limit windows.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../jobs/task.js';

export const purgeRateLimitWindowsTask = defineTask({
  name: 'platform.purge-rate-limit-windows',
  payload: Type.Object({}),
  cron: '23 * * * *',
  retryLimit: 2,
});
