// A saved search as the API answers it (spec §2.5): every criterion (null when not set), the owner's time zone,
// the contact links; `saved_search.contacts`, `.boundaries` and `.brands` turn ids into records.
import type { Deps } from '../../platform/deps.js';
import { epochSeconds } from '../../lib/clock.js';
import { getBoundary } from '../boundaries/index.js';
import { brandExpansion, getBrandProfile } from '../brands/index.js';
import { presentContacts, findLiveContacts } from '../contacts/index.js';
import { DEFAULT_CURRENCY, SearchCriteria } from '../listings/search/search.schemas.js';
import type { SavedSearchRow } from './saved-searches.repository.js';
import type { ContactLink, Frequency, SavedSearchRecord } from './saved-searches.schemas.js';

const SEPARATE = new Set(['points', 'brands', 'boundaries']);
/** Criteria keys stored in the `criteria` column, each answered (null when unset). */
const STORED_KEYS = Object.keys(SearchCriteria.properties).filter((key) => !SEPARATE.has(key));

export function presentSavedSearch(row: SavedSearchRow): SavedSearchRecord {
  const links: ContactLink[] = row.links.map((link) => ({
    type: 'saved_search_contact',
    ...link,
    frequency: link.frequency as Frequency,
  }));
  const record = {
    id: row.id,
    type: 'saved_search',
    brand: row.brand,
    created_by: row.created_by,
    from: row.from_user,
    title: row.title ?? row.proposed_title,
    proposed_title: row.proposed_title,
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
    deleted_at: row.deleted_at ? epochSeconds(row.deleted_at) : null,
    timezone: row.timezone,
    frequency: row.frequency as Frequency,
    send_time: row.send_time,
    send_weekday: row.send_weekday,
    send_monthday: row.send_monthday,
    points:
      row.criteria.points?.map((point) => ({
        latitude: point.latitude,
        longitude: point.longitude,
        type: 'location' as const,
      })) ?? null,
    brands: row.brands.length > 0 ? row.brands : null,
    boundaries: row.boundaries.length > 0 ? row.boundaries : null,
    contacts: links.map((link) => link.contact),
    contact_links: links,
  } as Record<string, unknown>;
  // The criteria are added one by one, always in the same order, so every record shares one hidden class. Built
  // with Object.fromEntries and spread into the literal, a page of 50 cost ~3 ms and most of the list's garbage
  // (dictionary-mode objects of ~60 keys); this way ~0.2 ms.
  const criteria = row.criteria as Record<string, unknown>;
  for (const key of STORED_KEYS) record[key] = criteria[key] ?? null;
  // The price range is in USD unless the search names another currency (spec 2.5), and the record says so.
  record.currency ??= DEFAULT_CURRENCY;
  return record as unknown as SavedSearchRecord;
}

export async function presentSavedSearches(
  deps: Deps,
  rows: SavedSearchRow[],
  associations: Set<string>,
): Promise<SavedSearchRecord[]> {
  const records = rows.map(presentSavedSearch);
  if (associations.has('saved_search.contacts')) {
    const ids = [...new Set(records.flatMap((r) => (r.contacts ?? []) as string[]))];
    const contacts = await presentContacts(deps, await findLiveContacts(deps.db, ids), new Set());
    const byId = new Map(contacts.map((c) => [c.id, c]));
    for (const record of records)
      record.contacts = ((record.contacts ?? []) as string[]).flatMap((id) => byId.get(id) ?? []);
  }
  if (associations.has('saved_search.boundaries')) {
    for (const record of records) {
      const ids = (record.boundaries ?? []) as string[];
      record.boundaries = ids.length > 0 ? await Promise.all(ids.map((id) => getBoundary(deps, id))) : null;
    }
  }
  if (associations.has('saved_search.brands')) {
    const expansion = brandExpansion(associations);
    for (const record of records) {
      const ids = (record.brands ?? []) as string[];
      record.brands = ids.length > 0 ? await Promise.all(ids.map((id) => getBrandProfile(deps, id, expansion))) : null;
    }
  }
  return records;
}
