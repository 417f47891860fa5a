// Job of push delivery: one attempt of one push (push.service.ts; handler in notifications.handlers.ts). The job's
// own retries only cover our failures (the database); provider failures are scheduled as new jobs with the next
// attempt number.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';

export const pushTask = defineTask({
  name: 'notifications.push',
  payload: Type.Object({
    delivery: Type.String({ pattern: '^[0-9a-f-]{36}$' }),
    attempt: Type.Integer({ minimum: 1 }),
  }),
  retryLimit: 10,
  retryDelaySeconds: 5,
  expireInSeconds: 60,
  // Waits on the network: many at once per worker process (8 workers × batches of 50; see bench/notifications).
  concurrency: 8,
  batchSize: 50,
});
