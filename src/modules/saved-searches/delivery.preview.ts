// `gable alerts preview SEARCH_ID` (issue 12 item 5): for each contact link of a search, when its next digest is due
// and what it would hold if it ran now (matched since the last digest, not emailed to that contact yet). Reads only.
import type { Deps } from '../../platform/deps.js';
import { listingCards } from './delivery.email.js';
import { findPreviewLinks, findPreviewSearch, pendingDigestListings } from './delivery.repository.js';
import { nextOccurrence } from './delivery.schedule.js';

export interface LinkPreview {
  contact: string;
  email: string | null;
  frequency: string;
  /** The next digest (null for Instant and Never). */
  next_digest_at: string | null;
  local_date: string | null;
  listings: { id: string; address: string; price: string | null; status: string; url: string }[];
}

export interface SearchPreview {
  id: string;
  title: string;
  timezone: string;
  links: LinkPreview[];
}

export async function previewDigests(deps: Deps, searchId: string): Promise<SearchPreview | null> {
  const search = await findPreviewSearch(deps.db, searchId);
  if (!search) return null;
  const links = await findPreviewLinks(deps.db, searchId);
  const now = deps.clock.now();
  const previews: LinkPreview[] = [];
  for (const link of links) {
    const next =
      link.next_digest_at && link.next_digest_date
        ? { at: link.next_digest_at, localDate: link.next_digest_date }
        : nextOccurrence(link, search.timezone, link.last_digest_at ?? link.updated_at);
    const pending = next
      ? await pendingDigestListings(
          deps.db,
          { saved_search: searchId, contact: link.contact, since: link.last_digest_at ?? link.created_at },
          now,
        )
      : [];
    const cards = await listingCards(deps.db, deps.config, pending);
    previews.push({
      contact: link.contact,
      email: link.email,
      frequency: link.frequency,
      next_digest_at: next?.at.toISOString() ?? null,
      local_date: next?.localDate ?? null,
      listings: cards.map((card) => ({
        id: card.id,
        address: card.address,
        price: card.price,
        status: card.status,
        url: card.url,
      })),
    });
  }
  return { ...search, links: previews };
}
