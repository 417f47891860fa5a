// Job: delete expired tokens, codes and families, and stale attempt counters (hourly; tokens.purge.ts).
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';

export const purgeExpiredTokensTask = defineTask({
  name: 'auth.purge-expired-tokens',
  payload: Type.Object({}),
  cron: '17 * * * *',
  retryLimit: 2,
});
