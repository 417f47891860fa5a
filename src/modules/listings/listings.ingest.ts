// Ingest: validate each record on its own, then upsert the valid ones of a batch in ONE transaction with a fixed
// number of statements (lock current state, upsert, replace open houses, write the record texts, record events)
// whatever its size. On the embedded database a batch is written in transactions of EMBEDDED_TRANSACTION_LISTINGS
// (ADR 0039): there the transaction holds the only session, and every other request waits for it.
import type { Deps } from '../../platform/deps.js';
import type { ErrorAttributes } from '../../errors.js';
import { eventsFor } from './listings.events.js';
import { checkListingInput } from './listings.input.js';
import { normalizeListing, type NormalizedListing } from './listings.normalize.js';
import type { IngestFailure, IngestResult } from './listings.schemas.js';
import { MATCH_BATCH, matchEventsTask } from '../saved-searches/index.js';
import { writeListingRecords } from './listings.stored-record.js';
import {
  insertEvents,
  lockChanging,
  replaceOpenHouses,
  upsertListings,
  type NewListingEvent,
} from './listings.repository.js';

export interface IngestOptions {
  /** Record listing events (default true). Bulk synthetic seeding turns them off: nothing "hit the market". */
  events?: boolean;
}

export type IngestDeps = Pick<Deps, 'db' | 'clock' | 'queue'> & { config: Pick<Deps['config'], 'embedded'> };

/**
 * Listings one transaction writes on the embedded database: 500 full records took 0.5–1.2 s there, each of those
 * milliseconds a wait for every other request; 100 take ~100–250 ms. Splitting is safe because ingest is
 * idempotent: a record already written has the stored hash, so a feed that re-sends a batch after a failure
 * rewrites and re-announces nothing (what it shows: a reader may see part of a batch before the rest).
 */
export const EMBEDDED_TRANSACTION_LISTINGS = 100;

export async function ingestListings(
  deps: IngestDeps,
  mls: string,
  records: unknown[],
  options: IngestOptions = {},
): Promise<IngestResult> {
  const failed: IngestFailure[] = [];
  const valid = new Map<string, { index: number; listing: NormalizedListing }>();
  records.forEach((record, index) => {
    const checked = checkListingInput(record, mls);
    if (!checked.ok) {
      failed.push({ index, mls_number: mlsNumberOf(record), errors: checked.errors });
      return;
    }
    const listing = normalizeListing(checked.listing, mls);
    const earlier = valid.get(listing.row.mls_number);
    // One statement cannot upsert a row twice: the last record of a listing wins, the earlier is reported.
    if (earlier) failed.push({ index: earlier.index, mls_number: listing.row.mls_number, errors: duplicate(index) });
    valid.set(listing.row.mls_number, { index, listing });
  });
  failed.sort((a, b) => a.index - b.index);

  const listings = [...valid.values()].map((entry) => entry.listing);
  const perTransaction = deps.config.embedded ? EMBEDDED_TRANSACTION_LISTINGS : listings.length;
  const written = { created: 0, updated: 0, events: 0 };
  for (let i = 0; i < listings.length; i += perTransaction) {
    const part = await writeBatch(deps, mls, listings.slice(i, i + perTransaction), options.events ?? true);
    written.created += part.created;
    written.updated += part.updated;
    written.events += part.events;
  }
  return { type: 'listing_ingest', ...written, unchanged: listings.length - written.created - written.updated, failed };
}

async function writeBatch(deps: IngestDeps, mls: string, listings: NormalizedListing[], recordEvents: boolean) {
  const now = deps.clock.now();
  const byNumber = new Map(listings.map((listing) => [listing.row.mls_number, listing]));
  const written = await deps.db.transaction().execute(async (trx) => {
    const before = recordEvents
      ? await lockChanging(
          trx,
          mls,
          listings.map((listing) => listing.row),
        )
      : new Map();
    const upserted = await upsertListings(
      trx,
      listings.map((listing) => listing.row),
      now,
    );
    const changedIds = upserted.filter((row) => !row.inserted).map((row) => row.id);
    const houses = upserted.flatMap((row) =>
      byNumber.get(row.mls_number)!.openHouses.map((house) => ({ ...house, listing: row.id })),
    );
    // New listings have no open houses to delete: only changed ones pay for the delete.
    await replaceOpenHouses(trx, changedIds, houses);
    // The record texts search pages read, written with what they show (listings.stored-record.ts).
    await writeListingRecords(
      trx,
      upserted.map((row) => row.id),
    );
    const events: NewListingEvent[] = recordEvents
      ? upserted.flatMap((row) => eventsFor(row.id, before.get(row.mls_number), byNumber.get(row.mls_number)!.row))
      : [];
    const eventIds = await insertEvents(trx, events, now);
    // Saved-search matching runs in jobs committed with the events (decisions §5, docs/saved-searches.md).
    for (let i = 0; i < eventIds.length; i += MATCH_BATCH)
      await deps.queue.enqueue(trx, matchEventsTask, { events: eventIds.slice(i, i + MATCH_BATCH) });
    const created = upserted.filter((row) => row.inserted).length;
    return { created, updated: upserted.length - created, events: events.length };
  });
  return written;
}

function mlsNumberOf(record: unknown): string | null {
  if (typeof record !== 'object' || record === null) return null;
  const value = (record as Record<string, unknown>).mls_number;
  return typeof value === 'string' ? value : null;
}

const duplicate = (laterIndex: number): ErrorAttributes => ({
  mls_number: [`appears again at index ${laterIndex} of this batch; the later record was used`],
});
