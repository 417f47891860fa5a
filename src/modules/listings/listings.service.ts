// Listing reads and the ingest entry point, with their access rules.
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import type { Actor } from '../auth/index.js';
import { ingestListings } from './listings.ingest.js';
import { loadListingRecords, type ListingEmbeds } from './listings.presenter.js';
import type { IngestResult, ListingRecord } from './listings.schemas.js';

/**
 * Any authenticated caller may read a listing: MLS data is not brand data. Deleted or unknown → 404. The single
 * record always embeds its list and selling agents (one statement either way); `embed` adds what was asked.
 */
export async function getListing(deps: Deps, id: string, embed: ListingEmbeds = {}): Promise<ListingRecord> {
  const [record] = await loadListingRecords(deps.db, [id], deps.clock.now(), {
    ...embed,
    listAgent: true,
    sellingAgent: true,
  });
  if (!record) throw errors.notFound('Listing');
  return record;
}

/**
 * Only the platform's own feed loaders write listings: a first-party client acting for itself (client-credentials
 * token). A user token, even through the first-party app, and every partner token are refused.
 */
export function requireFeedClient(actor: Actor): void {
  if (actor.userId !== null || actor.clientKind !== 'first_party') {
    throw errors.forbidden('Listing ingest needs a first-party client-credentials token');
  }
}

export async function ingestFromFeed(deps: Deps, actor: Actor, mls: string, records: unknown[]): Promise<IngestResult> {
  requireFeedClient(actor);
  return ingestListings(deps, mls, records);
}
