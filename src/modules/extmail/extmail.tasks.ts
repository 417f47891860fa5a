// Jobs of external mail (docs/extmail.md "Sync"; handlers in extmail.handlers.ts).
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';

/** One sync run of one credential; the queue retries failures other than throttling and revocation. */
export const syncTask = defineTask({
  name: 'extmail.sync',
  payload: Type.Object({ credential: Type.String({ pattern: '^[0-9a-f-]{36}$' }) }),
  retryLimit: 5,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 30 * 60,
  concurrency: 4,
});

/** Each minute: queue the credentials whose last sync is older than EXTMAIL_SYNC_INTERVAL_MINUTES. */
export const syncDueTask = defineTask({
  name: 'extmail.sync-due',
  payload: Type.Object({}),
  cron: '* * * * *',
  retryLimit: 0,
  expireInSeconds: 5 * 60,
});
