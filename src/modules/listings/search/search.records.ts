// The listing records of a result page, in the page's order, as JSON texts (listings.stored-record.ts).
// Presenting a listing belongs to the listings module; search only hands it the ordered ids.
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/types.js';
import type { ListingEmbeds } from '../listings.presenter.js';
import { ListingRecord } from '../listings.schemas.js';
import { loadListingRecordTexts } from '../listings.stored-record.js';

/** What each text of a page holds: the item schema of every search response. */
export const SearchResultSchema = ListingRecord;

/** `embed` (from the request's associations) adds agents or mls_info inside the same one statement. */
export async function loadSearchResults(
  db: Kysely<DB>,
  ids: string[],
  now: Date,
  embed: ListingEmbeds = {},
): Promise<string[]> {
  return loadListingRecordTexts(db, ids, now, embed);
}
