// Delivering matches (issue 12 item 3, decisions §6; docs/saved-searches.md "Delivery").
//   - deliverMatches (job saved-searches.deliver, enqueued with the matches of searches with an Instant contact):
//     one email per Instant contact with the listings new to that contact. The owners' in-app notifications are
//     written by the match job itself (delivery.notify.ts).
//   - runDueDigests (cron saved-searches.digests): each Daily/Weekly/Monthly link whose digest is due gets one email
//     with what matched since its last digest, keyed by (search, contact, local date); nothing new → no email.
// Each unit is one transaction (locks, marks, ledger rows, notification, mail rows), so a crash or a retried job
// repeats nothing: saved_search_alerts makes each (search, contact, listing) emailed at most once.
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../platform/deps.js';
import { queueMessages } from '../../mail/mail.service.js';
import { alertPageUrl, alertPreferencesUrl } from '../public-pages/index.js';
import { alertMessage, listingCards, type AlertEmail, type ListingCard } from './delivery.email.js';
import { listingLinkUrl } from '../public-pages/index.js';
import { notifyOwners } from './delivery.notify.js';
import {
  findEmailableLinks,
  insertAlerts,
  insertDigest,
  lockDueDigestLink,
  markMatchesDelivered,
  pendingDigestListings,
  setAlertsMessage,
  setDigestMessage,
  setNextDigest,
  type DueLink,
  type EmailableLink,
} from './delivery.repository.js';
import { DIGEST_FREQUENCIES, nextOccurrence } from './delivery.schedule.js';
import { unsubscribeUrl } from './delivery.unsubscribe.js';

type Trx = Transaction<DB>;

/**
 * Emails Instant contacts for these matches (and, with `notify`, notifies their owners: for jobs enqueued before
 * the match job did); a match already delivered is skipped.
 */
export async function deliverMatches(
  deps: Deps,
  matchIds: readonly string[],
  options: { notify?: boolean } = {},
): Promise<{ notified: number; emails: number }> {
  if (matchIds.length === 0) return { notified: 0, emails: 0 };
  const delivered = await deps.db.transaction().execute(async (trx) => {
    // Marked delivered as they are read (one pass; the mark commits with what is delivered): a retried or
    // duplicated job finds them marked, or waits for the first to commit and then finds them marked.
    const marked = await markMatchesDelivered(trx, matchIds, deps.clock.now());
    // In the order of the matches, as the owner's feed lists them.
    const matches = marked.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (matches.length === 0) return { notified: 0, emails: 0 };
    const live = matches.filter((match) => match.deleted_at === null);
    const cards = new Map(
      (await listingCards(trx, deps.config, [...new Set(live.map((m) => m.listing))])).map((card) => [card.id, card]),
    );
    const bySearch = new Map<string, { title: string; listings: string[] }>();
    for (const match of live) {
      const entry = bySearch.get(match.saved_search) ?? { title: match.title ?? match.proposed_title, listings: [] };
      if (!entry.listings.includes(match.listing) && cards.has(match.listing)) entry.listings.push(match.listing);
      bySearch.set(match.saved_search, entry);
    }
    let emails = 0;
    for (const link of await findEmailableLinks(trx, [...bySearch.keys()], ['Instant'])) {
      const { title, listings } = bySearch.get(link.saved_search)!;
      if (await emailListings(trx, deps, link, title, listings, cards, 'Instant')) emails++;
    }
    // Last: the notifications' counter locks are held until commit (delivery.notify.ts).
    const notified = options.notify
      ? await notifyOwners(
          trx,
          deps,
          live.map((match) => ({ ...match, owner: match.created_by, title: match.title ?? match.proposed_title })),
          cards,
        )
      : 0;
    return { notified, emails };
  });
  deps.metrics.alertNotifications.inc(delivered.notified);
  deps.metrics.alertEmails.inc({ frequency: 'Instant' }, delivered.emails);
  return delivered;
}

/**
 * Emails the listings this contact has not been emailed for this search yet (the alert ledger decides, under its
 * primary key); nothing new → no email. Answers whether an email was queued.
 */
async function emailListings(
  trx: Trx,
  deps: Deps,
  link: EmailableLink,
  title: string,
  listings: string[],
  cards: Map<string, ListingCard>,
  kind: AlertEmail['kind'],
): Promise<string | null> {
  if (listings.length === 0) return null;
  const fresh = await insertAlerts(
    trx,
    listings.map((listing) => ({
      saved_search: link.saved_search,
      contact: link.contact,
      listing,
      created_at: deps.clock.now(),
    })),
  );
  if (fresh.length === 0) return null;
  const freshIds = new Set(fresh);
  // Cards are built once for every search of a batch; each email links them for its own search's brand.
  const shown = listings
    .filter((listing) => freshIds.has(listing))
    .map((listing) => cards.get(listing)!)
    .map((card) => ({ ...card, url: listingLinkUrl(deps.config, card, link.brand) }));
  const pair = { search: link.saved_search, contact: link.contact };
  const [id] = await queueMessages(trx, deps, [
    alertMessage({
      to: link.email,
      contact: link.contact,
      searchTitle: title,
      cards: shown,
      total: shown.length,
      seeAllUrl: alertPageUrl(deps.config, { ...pair, brand: link.brand }, deps.clock.now()),
      preferencesUrl: alertPreferencesUrl(deps.config, pair, deps.clock.now()),
      unsubscribeUrl: unsubscribeUrl(deps, link.saved_search, link.contact),
      kind,
    }),
  ]);
  await setAlertsMessage(trx, link, [...freshIds], id!);
  return id!;
}

/**
 * Handles digest links one transaction each until none is due or `max` were handled: a link without a computed
 * next digest gets one; a due one sends its digest (or records an empty one) and moves to the next occurrence.
 * Answers the number of links handled.
 */
export async function runDueDigests(deps: Deps, max = 500, stopping?: AbortSignal): Promise<number> {
  let handled = 0;
  while (handled < max && !stopping?.aborted) {
    const did = await deps.db.transaction().execute((trx) => handleOneDueLink(trx, deps));
    if (!did) break;
    if (did !== true) deps.metrics.alertEmails.inc({ frequency: did.emailed });
    handled++;
  }
  return handled;
}

/** false: nothing was due; true: a link was handled; `emailed`: and its digest was emailed. */
async function handleOneDueLink(trx: Trx, deps: Deps): Promise<boolean | { emailed: string }> {
  const now = deps.clock.now();
  const link = await lockDueDigestLink(trx, now);
  if (!link) return false;
  const key = { saved_search: link.saved_search, contact: link.contact };
  const occurrence =
    link.next_digest_at && link.next_digest_date
      ? { at: link.next_digest_at, localDate: link.next_digest_date }
      : nextOccurrence(link, link.timezone, link.last_digest_at ?? link.updated_at);
  if (!occurrence) return true;
  if (occurrence.at.getTime() > now.getTime()) {
    await setNextDigest(trx, key, occurrence, link.last_digest_at);
    return true;
  }
  const mailed = await sendDigest(trx, deps, link, occurrence);
  await setNextDigest(trx, key, nextOccurrence(link, link.timezone, occurrence.at), occurrence.at);
  return mailed ? { emailed: link.frequency } : true;
}

/** One digest: keyed by (search, contact, local date), so a repeat of the same local date sends nothing. */
async function sendDigest(
  trx: Trx,
  deps: Deps,
  link: DueLink,
  occurrence: { at: Date; localDate: string },
): Promise<boolean> {
  const digest = await insertDigest(trx, {
    saved_search: link.saved_search,
    contact: link.contact,
    local_date: occurrence.localDate,
    due_at: occurrence.at,
    listings: 0,
    created_at: deps.clock.now(),
  });
  if (!digest) return false;
  const pending = await pendingDigestListings(
    trx,
    { saved_search: link.saved_search, contact: link.contact, since: link.last_digest_at ?? link.created_at },
    occurrence.at,
  );
  if (pending.length === 0) return false;
  const [target] = await findEmailableLinks(trx, [link.saved_search], [...DIGEST_FREQUENCIES]).then((links) =>
    links.filter((l) => l.contact === link.contact),
  );
  if (!target) return false;
  const cards = new Map((await listingCards(trx, deps.config, pending)).map((card) => [card.id, card]));
  const listings = pending.filter((listing) => cards.has(listing));
  const mail = await emailListings(
    trx,
    deps,
    target,
    link.title,
    listings,
    cards,
    link.frequency as AlertEmail['kind'],
  );
  if (mail) await setDigestMessage(trx, digest.id, mail, listings.length);
  return mail !== null;
}
