// Which listing events an upsert causes (decisions §5), decided by comparing the stored state with the new row.
//   - new listing (or a deleted one coming back) that is Active → BecameAvailable
//   - an existing listing whose status becomes Active → BecameAvailable
//   - any other status change → StatusChanged
//   - price lowered (same currency assumed) → PriceDropped, beside any status event
// A new listing in another status (a Sold record loaded for history) records nothing: "just hit the market"
// alerts must not fire for homes that are not on it.
import type { ListingWrite } from './listings.normalize.js';
import type { NewListingEvent, StoredState } from './listings.repository.js';

export function eventsFor(
  listing: string,
  before: StoredState | undefined,
  after: Pick<ListingWrite, 'status' | 'price'>,
): NewListingEvent[] {
  const event = (type: NewListingEvent['type']): NewListingEvent => ({
    listing,
    type,
    old_status: before && !before.deleted_at ? before.status : null,
    new_status: after.status,
    old_price: before && !before.deleted_at ? before.price : null,
    new_price: after.price,
  });
  if (!before || before.deleted_at) return after.status === 'Active' ? [event('BecameAvailable')] : [];
  const events: NewListingEvent[] = [];
  if (before.status !== after.status)
    events.push(event(after.status === 'Active' ? 'BecameAvailable' : 'StatusChanged'));
  if (before.price !== null && after.price !== null && after.price < before.price) events.push(event('PriceDropped'));
  return events;
}
