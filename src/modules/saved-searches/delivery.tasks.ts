// Delivery jobs (docs/saved-searches.md "Delivery"): Instant emails per batch of new matches (enqueued by the match
// job in the transaction that stores them and notifies their owners), and the digest cron.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';

export const DELIVER_BATCH = 500;

export const deliverMatchesTask = defineTask({
  name: 'saved-searches.deliver',
  payload: Type.Object({
    matches: Type.Array(Type.String({ pattern: '^[0-9a-f-]{36}$' }), { minItems: 1, maxItems: DELIVER_BATCH }),
    // The match job notified the owners. Jobs enqueued before it did (a queue carried over an upgrade) lack it,
    // and their handler notifies as well.
    notified: Type.Optional(Type.Boolean()),
  }),
  retryLimit: 10,
  retryDelaySeconds: 5,
  concurrency: 2,
});

export const digestsTask = defineTask({
  name: 'saved-searches.digests',
  payload: Type.Object({}),
  cron: '* * * * *',
  retryLimit: 0,
  expireInSeconds: 2 * 60,
});
