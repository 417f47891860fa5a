// A listing as the public listing page shows it (decisions §21): only when publicly displayable, by the anonymous
// search's own rule (search/filters.query.ts `publiclyDisplayable`), with what the page prints beside the record.
import type { Deps } from '../../platform/deps.js';
import { isUuid } from '../../lib/uuid.js';
import { presentListing } from './listings.presenter.js';
import { findListingRows } from './listings.repository.js';
import type { ListingRecord } from './listings.schemas.js';

export interface PublicListing {
  /** The record, with `list_agent` and `mls_info` embedded. */
  record: ListingRecord;
  /** The brand of the Gable user linked to the listing agent, if any: the page's style when the link names none. */
  listAgentBrand: string | null;
}

/** The live, publicly displayable listing of this id (one statement); undefined otherwise, or for a malformed id. */
export async function findPublicListing(
  deps: Pick<Deps, 'db' | 'clock'>,
  id: string,
): Promise<PublicListing | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await findListingRows(
    deps.db,
    [id],
    { listAgent: true, mlsInfo: true, listAgentBrand: true },
    { publicOnly: true },
  );
  if (!row) return undefined;
  return { record: presentListing(row, deps.clock.now()), listAgentBrand: row.list_agent_brand ?? null };
}
