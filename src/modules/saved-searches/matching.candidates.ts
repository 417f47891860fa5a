// Which saved searches might match these listings: found through the searches' own indexes, never by reading every
// search (matching.repository.ts findCandidateSearches says how). A superset by construction; matching.service.ts
// confirms each candidate with the search engine's compiled SQL.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { findCandidateSearches, type Candidate } from './matching.repository.js';

export type { Candidate };

export async function candidateSearches(db: Kysely<DB>, listingIds: readonly string[]): Promise<Candidate[]> {
  return await findCandidateSearches(db, listingIds);
}
