// The matching job (docs/saved-searches.md "Matching"): enqueued by listing ingest in the transaction that records
// the events, one job per batch of events. Idempotent: matches are unique per (search, event).
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';

/** Events per job: ingest splits a batch's events into jobs of at most this many. */
export const MATCH_BATCH = 500;

export const matchEventsTask = defineTask({
  name: 'saved-searches.match',
  payload: Type.Object({
    events: Type.Array(Type.String({ pattern: '^[0-9a-f-]{36}$' }), { minItems: 1, maxItems: MATCH_BATCH }),
  }),
  retryLimit: 10,
  retryDelaySeconds: 5,
  concurrency: 2,
  // Events per transaction: a chunk's matches and notifications commit together. On PostgreSQL the whole job is one
  // (smaller chunks cost up to 45 % of the matching rate: bench --only alerts, neighbourhood mix); on the embedded
  // database a request waits for one chunk at most, not for 500 events and their thousands of notifications:
  // 25 events matching 20 searches each write 500 notifications in ~100 ms there (the responsiveness scenario).
  chunkRows: MATCH_BATCH,
  embeddedChunkRows: 25,
});
