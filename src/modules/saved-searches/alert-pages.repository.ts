// SQL of the contact's own alert pages (alert-pages.service.ts; docs/public-pages.md): the link an alert token names,
// the links of one brand a contact has, and a new schedule for one of them.
import { sql, type Kysely } from 'kysely';
import { narrowed } from '../../db/narrow.js';
import { preparedQuery, type PooledDatabase } from '../../db/prepared.js';
import type { DB } from '../../db/types.js';
import { searchBoundaries, searchBrands, type SavedSearchRow, type Schedule } from './saved-searches.repository.js';

/** The search an alert token names (deleted ones too: their page still wears the brand), and the link's state. */
export interface AlertLinkRow extends Pick<SavedSearchRow, 'criteria' | 'brands' | 'boundaries'> {
  brand: string;
  title: string;
  search_deleted: boolean;
  contact_live: boolean;
  /** The link's frequency; null when the contact is no longer linked. */
  frequency: string | null;
}

function alertLinkQuery(db: Kysely<DB>, search: string, contact: string) {
  return db
    .selectFrom('saved_searches as s')
    .leftJoin('saved_search_contacts as l', (join) =>
      join.onRef('l.saved_search', '=', 's.id').on('l.contact', '=', contact),
    )
    .select([
      's.brand',
      sql<SavedSearchRow['criteria']>`s.criteria`.as('criteria'),
      searchBrands,
      searchBoundaries,
      'l.frequency',
      sql<string>`coalesce(s.title, s.proposed_title)`.as('title'),
      sql<boolean>`s.deleted_at is not null`.as('search_deleted'),
      sql<boolean>`exists (select 1 from contacts c where c.id = ${contact} and c.deleted_at is null)`.as(
        'contact_live',
      ),
    ])
    .where('s.id', '=', search);
}

/** Stand-ins of the statement's arguments (matched by value: uuids no search or contact has). */
const SEARCH_STAND_IN = '00000000-0000-0000-0000-00000000005e';
const CONTACT_STAND_IN = '00000000-0000-0000-0000-0000000000c0';

/** Prepared: PostgreSQL planned this read (its sub-selects) in ~0.9 ms and ran it in 0.15 ms, on every alert page. */
const alertLinkRow = preparedQuery(
  'saved-searches.alert-link',
  [SEARCH_STAND_IN, CONTACT_STAND_IN] as const,
  (db, search: string, contact: string) => alertLinkQuery(db, search, contact),
);

/** The search a link names, whatever its state, with the contact's link to it and whether the contact is live. */
export async function findAlertLink(
  database: PooledDatabase,
  search: string,
  contact: string,
): Promise<AlertLinkRow | undefined> {
  return narrowed<AlertLinkRow | undefined>(await alertLinkRow(database, search, contact));
}

/** A link of the contact to a live search of the brand, with the search's own schedule (a digest's defaults). */
export interface BrandLinkRow extends Schedule {
  saved_search: string;
  title: string;
  search_send_time: number | null;
  search_send_weekday: number | null;
  search_send_monthday: number | null;
}

/**
 * The contact's links to live searches of `brand`, oldest search first; with `forUpdate`, locked for the caller's
 * transaction (a preferences POST and the digest job do not interleave on a link).
 */
export async function findBrandLinks(
  db: Kysely<DB>,
  brand: string,
  contact: string,
  options: { forUpdate?: boolean } = {},
): Promise<BrandLinkRow[]> {
  let query = db
    .selectFrom('saved_search_contacts as l')
    .innerJoin('saved_searches as s', 's.id', 'l.saved_search')
    .select([
      'l.saved_search',
      'l.frequency',
      'l.send_time',
      'l.send_weekday',
      'l.send_monthday',
      's.send_time as search_send_time',
      's.send_weekday as search_send_weekday',
      's.send_monthday as search_send_monthday',
      sql<string>`coalesce(s.title, s.proposed_title)`.as('title'),
    ])
    .where('l.contact', '=', contact)
    .where('s.brand', '=', brand)
    .where('s.deleted_at', 'is', null)
    .orderBy('s.created_at')
    .orderBy('s.id');
  if (options.forUpdate) query = query.forUpdate('l');
  return await query.execute();
}

/** A link's new schedule; the digest job computes its next digest from it (next_digest_at cleared). */
export async function setLinkSchedule(
  db: Kysely<DB>,
  link: { saved_search: string; contact: string },
  schedule: Schedule,
  at: Date,
): Promise<void> {
  await db
    .updateTable('saved_search_contacts')
    .set({ ...schedule, updated_at: at, next_digest_at: null, next_digest_date: null })
    .where('saved_search', '=', link.saved_search)
    .where('contact', '=', link.contact)
    .execute();
}
