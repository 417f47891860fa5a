// Job: write the stored record texts that are missing or stale (listings.stored-record.ts). Ingest keeps them
// current; this catches up after a deploy whose presenter writes a new version (run when a worker starts) and
// after any write that did not refresh its listing's text (hourly). Until then such listings are presented from
// their columns, so a stale text is never shown: this only restores the fast path.
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.js';
import { defineTask } from '../../jobs/task.js';
import { staleRecordsAfter, writeListingRecords } from './listings.stored-record.js';

/** Listings looked at per step; the stale ones among them are written in one statement. */
const WINDOW = 500;

/** Walks the listings in id order, one committed batch at a time: a run cut short keeps what it wrote. */
export async function refreshStaleRecords(deps: Pick<Deps, 'db'>, options: { stopping?: AbortSignal; window?: number } = {}): Promise<number> {
  const { stopping, window = WINDOW } = options;
  let after: string | null = null;
  let written = 0;
  while (!stopping?.aborted) {
    const { stale, last } = await staleRecordsAfter(deps.db, after, window);
    if (last === null) break;
    written += await writeListingRecords(deps.db, stale);
    after = last;
  }
  return written;
}

export const refreshRecordsTask = defineTask({
  name: 'listings.refresh-records',
  payload: Type.Object({}),
  cron: '7 * * * *',
  runAtStart: true,
  retryLimit: 2,
  retryDelaySeconds: 60,
  expireInSeconds: 3600,
  handle: async (deps, _payload, stopping) => {
    const written = await refreshStaleRecords(deps, { stopping });
    if (written > 0) deps.log.info({ written }, 'listing record texts refreshed');
  },
});
