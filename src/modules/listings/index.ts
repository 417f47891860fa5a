// The public face of the listings module (issue 29, docs/architecture.md "Layers"): what other modules may import.
// So far the query functions they read and write with; never a table. Other modules import this file, not the
// module's repositories, so the repositories can change behind it.
export { lockUnmatchedEvents, markEventsMatched, type UnmatchedEvent } from './listing-events.repository.js';
export { findListingCardRows, type ListingCardRow } from './listings.repository.js';
