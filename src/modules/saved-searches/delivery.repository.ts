// SQL of delivering matches (delivery.service.ts, delivery.preview.ts, delivery.unsubscribe.ts): marking matches
// delivered, the contact links to email, the alert ledger, the digests. A link's contact, and the owner's time zone,
// are read in the same statement as the link (joins to contacts and users): the digest job locks the link it reads.
import { sql, type Insertable, type Kysely } from 'kysely';
import { arrayLiteral } from '../../db/arrays.js';
import type { DB } from '../../db/types.js';

/** A match marked delivered, with what delivering it needs of its search. */
export interface DeliverableMatch {
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

/**
 * Marks these matches delivered at `at` as they are read (one pass; the mark commits with what is delivered): a
 * retried or duplicated job finds them marked, or waits for the first to commit and then finds them marked. A match
 * already delivered is not answered. In no particular order.
 */
export async function markMatchesDelivered(
  db: Kysely<DB>,
  matchIds: readonly string[],
  at: Date,
): Promise<DeliverableMatch[]> {
  const { rows } = await sql<DeliverableMatch>`
      update saved_search_matches as m set delivered_at = ${at}
      from saved_searches as s
      where m.id = any(${arrayLiteral(matchIds)}::uuid[]) and m.delivered_at is null and s.id = m.saved_search
      returning m.id, m.saved_search, m.listing, m.event, m.event_type, s.created_by, s.title, s.proposed_title, s.deleted_at`.execute(
    db,
  );
  return rows;
}

export interface EmailableLink {
  saved_search: string;
  contact: string;
  email: string;
  /** The search's brand: its links (listing page, results page) are styled with it. */
  brand: string;
}

/** Links of these searches with these frequencies whose contact is live, subscribed and has an address. */
export async function findEmailableLinks(
  db: Kysely<DB>,
  searches: string[],
  frequencies: string[],
): Promise<EmailableLink[]> {
  if (searches.length === 0) return [];
  return (await db
    .selectFrom('saved_search_contacts as l')
    .innerJoin('contacts as c', 'c.id', 'l.contact')
    .innerJoin('saved_searches as s', 's.id', 'l.saved_search')
    .select(['l.saved_search', 'l.contact', sql<string>`c.emails[1]`.as('email'), 's.brand'])
    .where('l.saved_search', 'in', searches)
    .where('l.frequency', 'in', frequencies)
    .where('c.deleted_at', 'is', null)
    .where('c.unsubscribed', '=', false)
    .where(sql<boolean>`c.emails[1] is not null`)
    .orderBy('l.contact')
    .execute()) as EmailableLink[];
}

/**
 * Records these listings in the alert ledger as emailed to the contact, under its primary key (search, contact,
 * listing): a listing recorded before is skipped. Answers the listings recorded now (the ones to email).
 */
export async function insertAlerts(
  db: Kysely<DB>,
  alerts: readonly Insertable<DB['saved_search_alerts']>[],
): Promise<string[]> {
  const fresh = await db
    .insertInto('saved_search_alerts')
    .values([...alerts])
    .onConflict((oc) => oc.columns(['saved_search', 'contact', 'listing']).doNothing())
    .returning('listing')
    .execute();
  return fresh.map((row) => row.listing);
}

/** Sets the mail message that emailed these listings of a link's ledger rows. */
export async function setAlertsMessage(
  db: Kysely<DB>,
  link: { saved_search: string; contact: string },
  listings: readonly string[],
  message: string,
): Promise<void> {
  await db
    .updateTable('saved_search_alerts')
    .set({ mail_message: message })
    .where('saved_search', '=', link.saved_search)
    .where('contact', '=', link.contact)
    .where('listing', 'in', [...listings])
    .execute();
}

/** A digest link as the digest job reads it, with its search's title and its owner's time zone. */
export interface DueLink {
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
 * One digest link of a live search that is due at `now` or has no computed next digest yet (those first), locked
 * for the caller's transaction; a link another transaction holds is skipped, so digest jobs never wait for each
 * other.
 */
export async function lockDueDigestLink(db: Kysely<DB>, now: Date): Promise<DueLink | undefined> {
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
    for update of l skip locked`.execute(db);
  return rows[0];
}

/** Moves a link to its next digest (none: null) and records when its last digest was due. */
export async function setNextDigest(
  db: Kysely<DB>,
  key: { saved_search: string; contact: string },
  next: { at: Date; localDate: string } | null,
  last: Date | null,
): Promise<void> {
  await db
    .updateTable('saved_search_contacts')
    .set({ next_digest_at: next?.at ?? null, next_digest_date: next?.localDate ?? null, last_digest_at: last })
    .where('saved_search', '=', key.saved_search)
    .where('contact', '=', key.contact)
    .execute();
}

/**
 * Records a digest, keyed by (search, contact, local date): a digest of that local date recorded before is left
 * alone and nothing is answered, so a repeat sends nothing.
 */
export async function insertDigest(
  db: Kysely<DB>,
  digest: Insertable<DB['saved_search_digests']>,
): Promise<{ id: string } | undefined> {
  return await db
    .insertInto('saved_search_digests')
    .values(digest)
    .onConflict((oc) => oc.columns(['saved_search', 'contact', 'local_date']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

/** The mail message a digest was emailed by, and how many listings it held. */
export async function setDigestMessage(db: Kysely<DB>, id: string, message: string, listings: number): Promise<void> {
  await db.updateTable('saved_search_digests').set({ mail_message: message, listings }).where('id', '=', id).execute();
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

/** A live search as `gable alerts preview` shows it: its title and its owner's time zone. */
export async function findPreviewSearch(
  db: Kysely<DB>,
  id: string,
): Promise<{ id: string; title: string; timezone: string } | undefined> {
  return await db
    .selectFrom('saved_searches as s')
    .leftJoin('users as u', 'u.id', 's.created_by')
    .select([
      's.id',
      sql<string>`coalesce(s.title, s.proposed_title)`.as('title'),
      sql<string>`coalesce(u.timezone, 'UTC')`.as('timezone'),
    ])
    .where('s.id', '=', id)
    .where('s.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The links of a search to live contacts, with each contact's first address, oldest link first. */
export async function findPreviewLinks(db: Kysely<DB>, search: string) {
  return await db
    .selectFrom('saved_search_contacts as l')
    .innerJoin('contacts as c', 'c.id', 'l.contact')
    .select([
      'l.contact',
      'l.frequency',
      'l.send_time',
      'l.send_weekday',
      'l.send_monthday',
      'l.created_at',
      'l.updated_at',
      'l.next_digest_at',
      'l.last_digest_at',
    ])
    .select([sql<string>`l.next_digest_date::text`.as('next_digest_date'), sql<string | null>`c.emails[1]`.as('email')])
    .where('l.saved_search', '=', search)
    .where('c.deleted_at', 'is', null)
    .orderBy('l.created_at')
    .execute();
}

/** The title fields of the search of this contact link (the unsubscribe page shows it); none: no such link. */
export async function findLinkTitle(
  db: Kysely<DB>,
  search: string,
  contact: string,
): Promise<{ title: string | null; proposed_title: string } | undefined> {
  return await db
    .selectFrom('saved_search_contacts as l')
    .innerJoin('saved_searches as s', 's.id', 'l.saved_search')
    .select(['s.title', 's.proposed_title'])
    .where('l.saved_search', '=', search)
    .where('l.contact', '=', contact)
    .executeTakeFirst();
}

/** What a link set to Never holds: no schedule left to compute. */
const neverAlerted = (at: Date) => ({
  frequency: 'Never',
  send_time: null,
  send_weekday: null,
  send_monthday: null,
  next_digest_at: null,
  next_digest_date: null,
  updated_at: at,
});

/** Sets a contact link to Never (the link stays, the alerts stop); a link already Never is left alone. */
export async function unsubscribeLink(db: Kysely<DB>, search: string, contact: string, at: Date): Promise<void> {
  await db
    .updateTable('saved_search_contacts')
    .set(neverAlerted(at))
    .where('saved_search', '=', search)
    .where('contact', '=', contact)
    .where('frequency', '<>', 'Never')
    .execute();
}

/** Every saved-search link of these contacts set to Never (an unsubscribe from everything); answers how many changed. */
export async function unsubscribeContactLinks(db: Kysely<DB>, contacts: string[], at: Date): Promise<number> {
  if (contacts.length === 0) return 0;
  const result = await db
    .updateTable('saved_search_contacts')
    .set(neverAlerted(at))
    .where('contact', 'in', contacts)
    .where('frequency', '<>', 'Never')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
