// The listing records of a result page, in the page's order. Presenting a listing belongs to the listings
// module (listings.presenter.ts); search only hands it the ordered ids.
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/types.js';
import { loadListingRecords, type ListingEmbeds } from '../listings.presenter.js';
import { ListingRecord } from '../listings.schemas.js';

export type SearchResultRecord = ListingRecord;
export const SearchResultSchema = ListingRecord;

/** `embed` (from the request's associations) adds agents or mls_info inside the same one statement. */
export async function loadSearchResults(db: Kysely<DB>, ids: string[], now: Date, embed: ListingEmbeds = {}): Promise<SearchResultRecord[]> {
  return loadListingRecords(db, ids, now, embed);
}
