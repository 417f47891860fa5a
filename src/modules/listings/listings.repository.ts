// SQL of listings: reads for the presenter, and the batch writes of ingest (listings.writes.ts holds the upsert).
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/types.js';
import type { ListingOpenHousesTable, ListingsTable } from './listings.tables.js';

/** Every column the record shows: not the tsvectors (large, internal) nor the source hash. */
export const LISTING_COLUMNS = [
  'id', 'mls', 'mls_number', 'status', 'price', 'original_price', 'last_price', 'close_price', 'close_date', 'list_date',
  'currency', 'office_exclusive', 'content',
  'list_agent_mui', 'co_list_agent_mui', 'co_list_agent2_mui', 'co_list_agent3_mui',
  'selling_agent_mui', 'co_selling_agent_mui', 'co_selling_agent2_mui', 'co_selling_agent3_mui',
  'list_office_mls_id', 'co_list_office_mls_id', 'selling_office_mls_id', 'co_selling_office_mls_id',
  'property_type', 'property_subtype', 'bedroom_count', 'full_bathroom_count', 'half_bathroom_count', 'bathroom_count',
  'square_meters', 'lot_square_meters', 'year_built', 'parking_spaces_covered_total', 'parking_spaces_uncovered_total',
  'parking_spaces_total', 'pool', 'pets', 'application_fee', 'appliances', 'furnished', 'fenced_yard',
  'number_of_pets_allowed', 'features',
  'street_number', 'street_name', 'unit_number', 'city', 'state', 'postal_code', 'country', 'full_address',
  'street_address', 'location', 'gallery_image_urls', 'cover_image_url', 'open_house_until',
  'created_at', 'updated_at', 'deleted_at',
] as const satisfies readonly (keyof ListingsTable)[];

export type ListingRow = Pick<Selectable<ListingsTable>, (typeof LISTING_COLUMNS)[number]>;
export type OpenHouseRow = Pick<Selectable<ListingOpenHousesTable>, 'listing' | 'start_time' | 'end_time' | 'description'>;

/** Live (not deleted) listings by id, in no particular order. */
export async function findListingRows(db: Kysely<DB>, ids: string[]): Promise<ListingRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('listings').select(LISTING_COLUMNS).where('id', 'in', ids).where('deleted_at', 'is', null).execute();
}

/** Open houses of these listings, each list in start order. */
export async function findOpenHouses(db: Kysely<DB>, listingIds: string[]): Promise<Map<string, OpenHouseRow[]>> {
  const byListing = new Map<string, OpenHouseRow[]>();
  if (listingIds.length === 0) return byListing;
  const rows = await db
    .selectFrom('listing_open_houses')
    .select(['listing', 'start_time', 'end_time', 'description'])
    .where('listing', 'in', listingIds)
    .orderBy('listing')
    .orderBy('start_time')
    .execute();
  for (const row of rows) {
    const list = byListing.get(row.listing);
    if (list) list.push(row);
    else byListing.set(row.listing, [row]);
  }
  return byListing;
}
