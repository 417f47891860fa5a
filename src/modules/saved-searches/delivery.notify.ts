// The owner's in-app notification of each match (decisions §6 (a); docs/saved-searches.md "Delivery"). The match
// job writes them in the transaction that stores the matches (matching.service.ts), so a notification exists
// exactly when its match does and reaches the owner's feed with it, without a delivery job of its own.
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../platform/deps.js';
import { notifyMany } from '../notifications/index.js';
import type { ListingCard } from './delivery.email.js';

/** A stored match, with what its notification names: the search's owner (none: nobody to notify) and title. */
export interface MatchToNotify {
  saved_search: string;
  listing: string;
  event: string;
  event_type: string;
  owner: string | null;
  title: string;
}

const MESSAGES: Record<string, (card: ListingCard) => string> = {
  BecameAvailable: (card) => `${card.address} just hit the market`,
  PriceDropped: (card) => `${card.address} dropped its price${card.price ? ` to ${card.price}` : ''}`,
  StatusChanged: (card) => `${card.address} is now ${card.status}`,
};

/**
 * One notification per match whose search has an owner and whose listing has a card (a listing deleted since is
 * not announced), in the order given, as the owner's feed lists them. Call it as the transaction's last write:
 * its feed rows take the owners' counter locks until commit (notifyMany), which another delivery to one of the
 * same owners waits for. Answers how many were written.
 */
export async function notifyOwners(
  trx: Transaction<DB>,
  deps: Deps,
  matches: readonly MatchToNotify[],
  cards: ReadonlyMap<string, ListingCard>,
): Promise<number> {
  const notifying = matches.filter((match) => match.owner !== null && cards.has(match.listing));
  const written = await notifyMany(
    trx,
    deps,
    notifying.map((match) => ({
      recipients: [match.owner!],
      action: match.event_type,
      notification_type: `Listing${match.event_type}User`,
      message: MESSAGES[match.event_type]!(cards.get(match.listing)!),
      title: match.title,
      subject: match.listing,
      subject_class: 'Listing',
      object: match.owner,
      object_class: 'User',
      data: { saved_search: match.saved_search, listing: match.listing, event: match.event },
    })),
  );
  return written.filter((row) => row !== null).length;
}
