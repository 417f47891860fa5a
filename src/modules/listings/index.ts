// The public face of the listings module (issue 29, docs/architecture.md "Layers"): what other modules may import, the
// services, query functions and types they use; never a repository or a table as such. Other modules import this
// file (and the record shapes of the module's *.schemas.ts), not its other files, which can change behind it.
export { lockUnmatchedEvents, markEventsMatched, type UnmatchedEvent } from './listing-events.repository.js';
export { formatCardTexts, formatListing } from './listings.format.js';
export { findListingSummary } from './listings.lookup.js';
export { loadListingRecords } from './listings.presenter.js';
export { findPublicListing, type PublicListing } from './listings.public.js';
export { SeededRandom } from './listings.random.js';
export { findListingCardRows, findListingCardRowsPrepared, type ListingCardRow } from './listings.repository.js';
export { ensureDemoMls } from './mls-registry.service.js';
export { whereClause } from './search/filters.query.js';
export { SearchResultSchema } from './search/search.records.js';
export {
  checkSavedCriteria,
  compileStoredSearch,
  searchListingIds,
  searchListings,
  type SearchResult,
} from './search/search.service.js';
export type { SearchCriteria } from './search/search.schemas.js';
export { resolveSort, type Criteria } from './search/search.validation.js';
