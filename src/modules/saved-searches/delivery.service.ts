// Delivering matches (issue 12 item 3, decisions §6; docs/saved-searches.md "Delivery").
//   - deliverMatches (job saved-searches.deliver, enqueued with the matches of searches with an Instant contact):
//     one email per Instant contact with the listings new to that contact. The owners' in-app notifications are
//     written by the match job itself (delivery.notify.ts).
//   - runDueDigests (cron saved-searches.digests): each Daily/Weekly/Monthly link whose digest is due gets one email
//     with what matched since its last digest, keyed by (search, contact, local date); nothing new → no email.
// Each unit is one transaction (locks, marks, ledger rows, notification, mail rows), so a crash or a retried job
// repeats nothing: saved_search_alerts makes each (search, contact, listing) emailed at most once.
import { sql, type Kysely, type Transaction } from 'kysely';
import { arrayLiteral } from '../../db/arrays.js';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../platform/deps.js';
import { queueMessages } from '../../mail/mail.service.js';
import { alertMessage, listingCards, type AlertEmail, type ListingCard } from './delivery.email.js';
import { notifyOwners } from './delivery.notify.js';
import { DIGEST_FREQUENCIES, nextOccurrence } from './delivery.schedule.js';
import { unsubscribeUrl } from './delivery.unsubscribe.js';

type Trx = Transaction<DB>;

interface DeliverableMatch {
  id: string;
  saved_search: string;
  listing: string;
  event: string;
  event_type: string;
  created_by: string | null;
  title: string | null;
  proposed_title: string;
  deleted_at: Date | null;
}

export function seeAllUrl(deps: Pick<Deps, 'config'>, search: string): string {
  return `${deps.config.webUrl}/saved-searches/${search}`;
}

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
    const { rows: marked } = await sql<DeliverableMatch>`
      update saved_search_matches as m set delivered_at = ${deps.clock.now()}
      from saved_searches as s
      where m.id = any(${arrayLiteral(matchIds)}::uuid[]) and m.delivered_at is null and s.id = m.saved_search
      returning m.id, m.saved_search, m.listing, m.event, m.event_type, s.created_by, s.title, s.proposed_title, s.deleted_at`.execute(
      trx,
    );
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
    for (const link of await emailableLinks(trx, [...bySearch.keys()], ['Instant'])) {
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

interface EmailableLink {
  saved_search: string;
  contact: string;
  email: string;
}

/** Links of these searches with these frequencies whose contact is live, subscribed and has an address. */
async function emailableLinks(trx: Trx, searches: string[], frequencies: string[]): Promise<EmailableLink[]> {
  if (searches.length === 0) return [];
  return (await trx
    .selectFrom('saved_search_contacts as l')
    .innerJoin('contacts as c', 'c.id', 'l.contact')
    .select(['l.saved_search', 'l.contact', sql<string>`c.emails[1]`.as('email')])
    .where('l.saved_search', 'in', searches)
    .where('l.frequency', 'in', frequencies)
    .where('c.deleted_at', 'is', null)
    .where('c.unsubscribed', '=', false)
    .where(sql<boolean>`c.emails[1] is not null`)
    .orderBy('l.contact')
    .execute()) as EmailableLink[];
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
  const fresh = await trx
    .insertInto('saved_search_alerts')
    .values(
      listings.map((listing) => ({
        saved_search: link.saved_search,
        contact: link.contact,
        listing,
        created_at: deps.clock.now(),
      })),
    )
    .onConflict((oc) => oc.columns(['saved_search', 'contact', 'listing']).doNothing())
    .returning('listing')
    .execute();
  if (fresh.length === 0) return null;
  const freshIds = new Set(fresh.map((row) => row.listing));
  const shown = listings.filter((listing) => freshIds.has(listing)).map((listing) => cards.get(listing)!);
  const [id] = await queueMessages(trx, deps, [
    alertMessage({
      to: link.email,
      contact: link.contact,
      searchTitle: title,
      cards: shown,
      total: shown.length,
      seeAllUrl: seeAllUrl(deps, link.saved_search),
      unsubscribeUrl: unsubscribeUrl(deps, link.saved_search, link.contact),
      kind,
    }),
  ]);
  await trx
    .updateTable('saved_search_alerts')
    .set({ mail_message: id! })
    .where('saved_search', '=', link.saved_search)
    .where('contact', '=', link.contact)
    .where('listing', 'in', [...freshIds])
    .execute();
  return id!;
}

interface DueLink {
  saved_search: string;
  contact: string;
  frequency: string;
  send_time: number | null;
  send_weekday: number | null;
  send_monthday: number | null;
  created_at: Date;
  updated_at: Date;
  next_digest_at: Date | null;
  next_digest_date: string | null;
  last_digest_at: Date | null;
  timezone: string;
  title: string;
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
  const { rows } = await sql<DueLink>`
    select l.saved_search, l.contact, l.frequency, l.send_time, l.send_weekday, l.send_monthday, l.created_at, l.updated_at,
      l.next_digest_at, l.next_digest_date::text as next_digest_date, l.last_digest_at,
      coalesce(u.timezone, 'UTC') as timezone, coalesce(s.title, s.proposed_title) as title
    from saved_search_contacts l
    join saved_searches s on s.id = l.saved_search and s.deleted_at is null
    left join users u on u.id = s.created_by
    where l.frequency in ('Daily', 'Weekly', 'Monthly') and l.send_time is not null
      and (l.next_digest_at is null or l.next_digest_at <= ${now})
    order by l.next_digest_at nulls first
    limit 1
    for update of l skip locked`.execute(trx);
  const link = rows[0];
  if (!link) return false;
  const key = { saved_search: link.saved_search, contact: link.contact };
  const occurrence =
    link.next_digest_at && link.next_digest_date
      ? { at: link.next_digest_at, localDate: link.next_digest_date }
      : nextOccurrence(link, link.timezone, link.last_digest_at ?? link.updated_at);
  if (!occurrence) return true;
  if (occurrence.at.getTime() > now.getTime()) {
    await setNext(trx, key, occurrence, link.last_digest_at);
    return true;
  }
  const mailed = await sendDigest(trx, deps, link, occurrence);
  await setNext(trx, key, nextOccurrence(link, link.timezone, occurrence.at), occurrence.at);
  return mailed ? { emailed: link.frequency } : true;
}

async function setNext(
  trx: Trx,
  key: { saved_search: string; contact: string },
  next: { at: Date; localDate: string } | null,
  last: Date | null,
): Promise<void> {
  await trx
    .updateTable('saved_search_contacts')
    .set({ next_digest_at: next?.at ?? null, next_digest_date: next?.localDate ?? null, last_digest_at: last })
    .where('saved_search', '=', key.saved_search)
    .where('contact', '=', key.contact)
    .execute();
}

/** One digest: keyed by (search, contact, local date), so a repeat of the same local date sends nothing. */
async function sendDigest(
  trx: Trx,
  deps: Deps,
  link: DueLink,
  occurrence: { at: Date; localDate: string },
): Promise<boolean> {
  const digest = await trx
    .insertInto('saved_search_digests')
    .values({
      saved_search: link.saved_search,
      contact: link.contact,
      local_date: occurrence.localDate,
      due_at: occurrence.at,
      listings: 0,
      created_at: deps.clock.now(),
    })
    .onConflict((oc) => oc.columns(['saved_search', 'contact', 'local_date']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!digest) return false;
  const pending = await pendingDigestListings(
    trx,
    { saved_search: link.saved_search, contact: link.contact, since: link.last_digest_at ?? link.created_at },
    occurrence.at,
  );
  if (pending.length === 0) return false;
  const [target] = await emailableLinks(trx, [link.saved_search], [...DIGEST_FREQUENCIES]).then((links) =>
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
  if (mail)
    await trx
      .updateTable('saved_search_digests')
      .set({ mail_message: mail, listings: listings.length })
      .where('id', '=', digest.id)
      .execute();
  return mail !== null;
}

/**
 * The listings a digest due at `upTo` holds: matched since the last digest (since the link, for the first) — both
 * ends inclusive: a match stamped at the very instant of the last digest is in it or not yet emailed, and the alert
 * ledger tells which — and not emailed to this contact yet. Oldest match first. (Also `gable alerts preview`.)
 */
export async function pendingDigestListings(
  db: Kysely<DB>,
  link: { saved_search: string; contact: string; since: Date },
  upTo: Date,
): Promise<string[]> {
  const { rows } = await sql<{ listing: string }>`
    select m.listing from saved_search_matches m
    where m.saved_search = ${link.saved_search} and m.created_at >= ${link.since} and m.created_at <= ${upTo}
      and not exists (select 1 from saved_search_alerts a where a.saved_search = m.saved_search and a.contact = ${link.contact} and a.listing = m.listing)
    group by m.listing
    order by min(m.created_at), m.listing`.execute(db);
  return rows.map((row) => row.listing);
}
