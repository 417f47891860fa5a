// A listing as the public listing page shows it (decisions §21): only when publicly displayable, by the anonymous
// search's own rule (search/filters.query.ts `publiclyDisplayable`), with what the page prints beside the record.
import type { Deps } from '../../platform/deps.js';
import { preparedQuery } from '../../db/prepared.js';
import { isUuid } from '../../lib/uuid.js';
import { narrowed } from '../../db/narrow.js';
import { presentListing } from './listings.presenter.js';
import { listingRowsQuery, type ListingRow } from './listings.repository.js';
import type { ListingRecord } from './listings.schemas.js';

export interface PublicListing {
  /** The record, with `list_agent` and `mls_info` embedded. */
  record: ListingRecord;
  /** The brand of the Gable user linked to the listing agent, if any: the page's style when the link names none. */
  listAgentBrand: string | null;
}

/** Matched by identity: the page's one id travels as this array's place in the statement. */
const ID_STAND_IN: string[] = ['00000000-0000-0000-0000-000000000000'];

/**
 * The page's read as a named prepared statement: with its sub-selects (open houses, agent, MLS, the agent's
 * brand) PostgreSQL spent about as long planning it as running it, on every page (docs/public-pages.md "Speed").
 */
const findPublicListingRow = preparedQuery('listings.public-page', [ID_STAND_IN] as const, (db, ids: string[]) =>
  listingRowsQuery(db, ids, { listAgent: true, mlsInfo: true, listAgentBrand: true }, { publicOnly: true }),
);

/** The live, publicly displayable listing of this id (one statement); undefined otherwise, or for a malformed id. */
export async function findPublicListing(
  deps: Pick<Deps, 'database' | 'clock'>,
  id: string,
): Promise<PublicListing | undefined> {
  if (!isUuid(id)) return undefined;
  const row = narrowed<ListingRow | undefined>(await findPublicListingRow(deps.database, [id]));
  if (!row) return undefined;
  return { record: presentListing(row, deps.clock.now()), listAgentBrand: row.list_agent_brand ?? null };
}
