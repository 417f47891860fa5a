// Job: write again the stored record texts of another version (listings.stored-record.ts): after a deploy whose
// presenter, formatting or schema changed the record (its computed version), and for the listings stored before
// the texts existed (the migration's placeholders). Run when a worker starts and hourly (a rolling deploy's older
// servers may still write their own version for a while); when there is nothing to do it costs an index probe.
// Until then such listings are presented from their columns, so a stale text is never shown: this only restores
// the fast path.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';

export const refreshRecordsTask = defineTask({
  name: 'listings.refresh-records',
  payload: Type.Object({}),
  cron: '7 * * * *',
  runAtStart: true,
  retryLimit: 2,
  retryDelaySeconds: 60,
  expireInSeconds: 3600,
  // Listing texts written per transaction (ADR 0039).
  chunkRows: 500,
});
