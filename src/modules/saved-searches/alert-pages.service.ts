// What the contact's alert pages (public-pages: GET /a/:token, GET/POST /a/:token/preferences; docs/public-pages.md)
// need of saved searches: the search an alert token names, its current results as the alert email's cards, and the
// contact's links of that brand with a way to change their frequencies. The token is checked by the caller; these
// functions trust the (search, contact) pair it names and check only that the link still stands.
import type { Deps } from '../../platform/deps.js';
import { AppError, errors } from '../../errors.js';
import { findContact, recordActivityIn } from '../contacts/index.js';
import { searchListingIds, type SearchCriteria } from '../listings/index.js';
import { findAlertLink, findBrandLinks, setLinkSchedule, type BrandLinkRow } from './alert-pages.repository.js';
import { listingCardsPrepared, type ListingCard } from './delivery.email.js';
import { storedCriteriaOf, type Schedule } from './saved-searches.repository.js';
import { FREQUENCIES, type Frequency } from './saved-searches.schemas.js';

export interface AlertPair {
  search: string;
  contact: string;
}

/** The search of a pair: `live` when the search, the contact and their link all still exist. */
export interface AlertSearch {
  brand: string;
  title: string;
  live: boolean;
  /** What a run of the search compiles (its criteria with its brands and boundaries). */
  criteria: SearchCriteria;
}

/** The search a pair names (null: no such search was ever stored). */
export async function findAlertSearch(deps: Pick<Deps, 'database'>, pair: AlertPair): Promise<AlertSearch | null> {
  const row = await findAlertLink(deps.database, pair.search, pair.contact);
  if (!row) return null;
  const live = !row.search_deleted && row.contact_live && row.frequency !== null;
  return { brand: row.brand, title: row.title, live, criteria: storedCriteriaOf(row) };
}

export interface AlertResults {
  cards: ListingCard[];
  total: number;
}

/**
 * One page of the search's current results, as the anonymous search sees them (publicly displayable listings only),
 * in the order a run of the saved search answers (GET …/saved-searches/:id/listings without order_by), as the alert
 * email's cards linked for the search's brand. Criteria that can no longer run (a brand or boundary deleted since)
 * find nothing, as matching does.
 */
export async function alertResults(
  deps: Deps,
  search: AlertSearch,
  paging: { start: number; limit: number },
): Promise<AlertResults> {
  try {
    const result = await searchListingIds(deps, null, {
      criteria: search.criteria,
      sort: [],
      start: paging.start,
      limit: paging.limit,
      anchor: 'required',
      publicOnly: true,
    });
    return {
      cards: await listingCardsPrepared(deps.database, deps.config, result.ids, search.brand),
      total: result.total,
    };
  } catch (error) {
    if (error instanceof AppError && error.http < 500) return { cards: [], total: 0 };
    throw error;
  }
}

export interface AlertPreference {
  search: string;
  title: string;
  frequency: Frequency;
}

/** The contact's links to the live searches of the brand, oldest search first. */
export async function alertPreferences(deps: Pick<Deps, 'db'>, brand: string, contact: string) {
  const rows = await findBrandLinks(deps.db, brand, contact);
  return rows.map((row): AlertPreference => ({
    search: row.saved_search,
    title: row.title,
    frequency: row.frequency as Frequency,
  }));
}

/** Where a digest goes when the contact picks one: the link's own time, else the search's, else 08:00 / Monday / 1st. */
const DEFAULT_DIGEST = { send_time: 8 * 60, send_weekday: 1, send_monthday: 1 };

function scheduleFor(row: BrandLinkRow, frequency: Frequency): Schedule {
  const pick = (field: keyof typeof DEFAULT_DIGEST) => row[field] ?? row[`search_${field}`] ?? DEFAULT_DIGEST[field];
  return {
    frequency,
    send_time: ['Daily', 'Weekly', 'Monthly'].includes(frequency) ? pick('send_time') : null,
    send_weekday: frequency === 'Weekly' ? pick('send_weekday') : null,
    send_monthday: frequency === 'Monthly' ? pick('send_monthday') : null,
  };
}

const isFrequency = (value: string): value is Frequency => (FREQUENCIES as readonly string[]).includes(value);

/**
 * Sets the frequencies the contact chose (search id → frequency) on their links of the brand, in one transaction:
 * an unknown frequency or a search the contact is not linked to (of this brand) is a 400 and nothing is written.
 * Each change records a `ContactChangedAlertFrequency` activity on the contact's timeline; the digest job and the
 * next Instant delivery read the new frequency. Answers how many links changed.
 */
export async function setAlertPreferences(
  deps: Deps,
  brand: string,
  contactId: string,
  wanted: ReadonlyMap<string, string>,
): Promise<number> {
  for (const [search, frequency] of wanted)
    if (!isFrequency(frequency)) throw errors.invalidField(`frequency[${search}]`, 'is not a frequency');
  return await deps.db.transaction().execute(async (trx) => {
    const contact = await findContact(trx, contactId, { forUpdate: true });
    if (!contact) throw errors.notFound('Contact');
    const links = new Map(
      (await findBrandLinks(trx, brand, contactId, { forUpdate: true })).map((l) => [l.saved_search, l]),
    );
    for (const search of wanted.keys())
      if (!links.has(search)) throw errors.invalidField(`frequency[${search}]`, 'names no alert of yours');
    let changed = 0;
    for (const [search, frequency] of wanted as ReadonlyMap<string, Frequency>) {
      const link = links.get(search)!;
      if (link.frequency === frequency) continue;
      await setLinkSchedule(
        trx,
        { saved_search: search, contact: contactId },
        scheduleFor(link, frequency),
        deps.clock.now(),
      );
      await recordActivityIn(
        trx,
        deps,
        contact,
        {
          action: 'ContactChangedAlertFrequency',
          search: { id: search, title: link.title },
          notes: `${frequency} (was ${link.frequency}), on the alert preferences page`,
        },
        null,
        'alert_preferences',
      );
      changed++;
    }
    return changed;
  });
}
