// Listing rows → listing records (spec 2.10, decisions §5). The search engine presents its pages with these too:
// `loadListingRecords(db, ids, now, embed)` keeps the order of `ids`. This is the ONE place where the record gets
// the names existing clients read (top-level `location`, `property.description`, the `formatted` entries of
// listings.format.ts, `list_agent`/`selling_agent`, `mls_info`): docs/existing-clients.md.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { formatListing } from './listings.format.js';
import { toAgentRecord } from '../users/index.js';
import { findListingRows, type ListingEmbeds, type ListingRow } from './listings.repository.js';
import { AGENT_SLOTS, OFFICE_SLOTS, type ListingRecord } from './listings.schemas.js';

export type { ListingEmbeds } from './listings.repository.js';

/** Which related records a request's `associations` ask for (names of decisions §1: `listing.list_agent`…). */
export function listingEmbedsOf(associations: ReadonlySet<string>): ListingEmbeds {
  return {
    listAgent: associations.has('listing.list_agent'),
    sellingAgent: associations.has('listing.selling_agent'),
    mlsInfo: associations.has('listing.mls_info'),
  };
}

const DAY_MS = 86_400_000;
const CLOSED_STATUSES = new Set(['Sold', 'Leased']);

const epoch = (date: Date) => date.getTime() / 1000;
const epochOrNull = (date: Date | null) => (date === null ? null : epoch(date));

/** Whole days from list_date to the close (closed listings) or to now; never negative. */
export function daysOnMarket(row: Pick<ListingRow, 'list_date' | 'close_date' | 'status'>, now: Date): number | null {
  if (!row.list_date) return null;
  const end = CLOSED_STATUSES.has(row.status) && row.close_date ? row.close_date : now;
  return Math.max(0, Math.floor((end.getTime() - row.list_date.getTime()) / DAY_MS));
}

export function presentListing(row: ListingRow, now: Date): ListingRecord {
  const dom = daysOnMarket(row, now);
  const slots = Object.fromEntries([...AGENT_SLOTS, ...OFFICE_SLOTS].map((slot) => [slot, row[slot]])) as Record<
    (typeof AGENT_SLOTS)[number] | (typeof OFFICE_SLOTS)[number],
    string | null
  >;
  return {
    type: 'listing',
    id: row.id,
    // One listing per property here (no property table): the property shares the listing's id.
    property_id: row.id,
    mls: row.mls,
    mls_number: row.mls_number,
    status: row.status,
    price: row.price,
    original_price: row.original_price,
    last_price: row.last_price,
    close_price: row.close_price,
    close_date: epochOrNull(row.close_date),
    list_date: epochOrNull(row.list_date),
    dom,
    cdom: dom,
    currency: row.currency,
    office_exclusive: row.office_exclusive,
    content: row.content,
    ...slots,
    list_office_name: row.list_office_name,
    ...embedded(row),
    location: row.location ? { latitude: row.location.y, longitude: row.location.x } : null,
    property: {
      type: 'property',
      property_type: row.property_type,
      property_subtype: row.property_subtype,
      bedroom_count: row.bedroom_count,
      full_bathroom_count: row.full_bathroom_count,
      half_bathroom_count: row.half_bathroom_count,
      bathroom_count: row.bathroom_count,
      square_meters: row.square_meters,
      lot_square_meters: row.lot_square_meters,
      year_built: row.year_built,
      parking_spaces_covered_total: row.parking_spaces_covered_total,
      parking_spaces_uncovered_total: row.parking_spaces_uncovered_total,
      parking_spaces_total: row.parking_spaces_total,
      pool: row.pool,
      pets: row.pets,
      number_of_pets_allowed: row.number_of_pets_allowed,
      application_fee: row.application_fee,
      appliances: row.appliances,
      furnished: row.furnished,
      fenced_yard: row.fenced_yard,
      features: row.features,
      description: row.content,
      address: {
        type: 'address',
        street_number: row.street_number,
        street_name: row.street_name,
        unit_number: row.unit_number,
        city: row.city,
        state: row.state,
        postal_code: row.postal_code,
        country: row.country,
        full_address: row.full_address,
        street_address: row.street_address,
        location: row.location ? { longitude: row.location.x, latitude: row.location.y, type: 'location' } : null,
      },
    },
    gallery_image_urls: row.gallery_image_urls,
    cover_image_url: row.cover_image_url,
    open_houses: row.open_houses.map((house) => ({ type: 'open_house', ...house })),
    formatted: formatListing(row),
    created_at: epoch(row.created_at),
    updated_at: epoch(row.updated_at),
    deleted_at: epochOrNull(row.deleted_at),
  };
}

/** The embedded records a row was read with: a key is present only when it was asked for (null = none found). */
export function embedded(
  row: Pick<ListingRow, 'list_agent' | 'selling_agent' | 'mls_info'>,
): Pick<ListingRecord, 'list_agent' | 'selling_agent' | 'mls_info'> {
  const records: Pick<ListingRecord, 'list_agent' | 'selling_agent' | 'mls_info'> = {};
  if (row.list_agent !== undefined) records.list_agent = row.list_agent ? toAgentRecord(row.list_agent) : null;
  if (row.selling_agent !== undefined)
    records.selling_agent = row.selling_agent ? toAgentRecord(row.selling_agent) : null;
  if (row.mls_info !== undefined) records.mls_info = row.mls_info ? { type: 'mls_info', ...row.mls_info } : null;
  return records;
}

/**
 * The records of these ids, in the order given; unknown or deleted ids are skipped. One query, whatever `embed`
 * asks for (the embedded records are sub-selects of that query).
 */
export async function loadListingRecords(
  db: Kysely<DB>,
  ids: string[],
  now: Date,
  embed: ListingEmbeds = {},
): Promise<ListingRecord[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await findListingRows(db, ids, embed)).map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [presentListing(row, now)] : [];
  });
}
