// Kysely types of the listings tables (migration 2026-11-21T1920-listings).
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../db/types.js';

/** `point` is read by pg as {x, y} (x = longitude, y = latitude) and written as an SQL expression. */
export type ListingPoint = ColumnType<{ x: number; y: number }, string, string>;
/** tsvector columns: written as SQL expressions, read back as text (never selected by the API). */
export type TsVector = ColumnType<string, string | undefined, string>;
/** numeric columns come back as JS numbers (db/database.ts sets the pg parser). */
type Num = number | null;

export interface ListingsTable {
  id: Generated<string>;
  mls: string;
  mls_number: string;
  status: string;
  price: Num;
  original_price: Num;
  last_price: Num;
  close_price: Num;
  close_date: Timestamp | null;
  list_date: Timestamp | null;
  currency: Generated<string>;
  office_exclusive: boolean | null;
  content: string | null;

  list_agent_mui: string | null;
  co_list_agent_mui: string | null;
  co_list_agent2_mui: string | null;
  co_list_agent3_mui: string | null;
  selling_agent_mui: string | null;
  co_selling_agent_mui: string | null;
  co_selling_agent2_mui: string | null;
  co_selling_agent3_mui: string | null;
  list_office_mls_id: string | null;
  co_list_office_mls_id: string | null;
  selling_office_mls_id: string | null;
  co_selling_office_mls_id: string | null;
  list_office_name: string | null;
  agent_muis: Generated<string[]>;
  office_mls_ids: Generated<string[]>;

  property_type: string | null;
  property_subtype: string | null;
  bedroom_count: Num;
  full_bathroom_count: Num;
  half_bathroom_count: Num;
  bathroom_count: Num;
  square_meters: Num;
  lot_square_meters: Num;
  year_built: Num;
  parking_spaces_covered_total: Num;
  parking_spaces_uncovered_total: Num;
  parking_spaces_total: Num;
  pool: boolean | null;
  pets: boolean | null;
  application_fee: boolean | null;
  appliances: boolean | null;
  furnished: boolean | null;
  fenced_yard: boolean | null;
  number_of_pets_allowed: Num;
  features: ColumnType<Record<string, string[]>, string | undefined, string>;

  street_number: string | null;
  street_name: string | null;
  unit_number: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  full_address: string | null;
  street_address: string | null;
  location: ListingPoint | null;

  gallery_image_urls: Generated<string[]>;
  cover_image_url: string | null;
  open_house_until: Timestamp | null;

  search_tsv: TsVector;
  content_tsv: TsVector;
  address_tsv: TsVector;

  source_hash: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export interface ListingOpenHousesTable {
  id: Generated<string>;
  listing: string;
  start_time: Timestamp;
  end_time: Timestamp;
  description: string | null;
}

export type ListingEventType = 'BecameAvailable' | 'PriceDropped' | 'StatusChanged';

export interface ListingEventsTable {
  id: Generated<string>;
  listing: string;
  type: ListingEventType;
  old_status: string | null;
  new_status: string | null;
  old_price: Num;
  new_price: Num;
  created_at: CreatedAt;
  /** When saved-search matching handled it (migration 2026-11-25T0200); null until then. */
  matched_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The MLS registry (migration 2026-11-23T2100-listing-record): what `mls_info` shows. */
export interface MlsRegistryTable {
  mls: string;
  name: string;
  disclaimer: string | null;
  logo_url: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/**
 * Each live listing's record as JSON text, without its request-dependent parts (migration 2026-11-28T1100,
 * listings.stored-record.ts). Used only while `version` and `listing_updated_at` still describe it.
 */
export interface ListingRecordsTable {
  listing: string;
  /** Digest of the record's shape and formatting code that wrote it: a new one makes every stored text stale. */
  version: string;
  /** The listing's updated_at when the text was written. */
  listing_updated_at: Timestamp;
  record: string;
}

export interface ListingsTables {
  listings: ListingsTable;
  listing_records: ListingRecordsTable;
  listing_open_houses: ListingOpenHousesTable;
  listing_events: ListingEventsTable;
  mls_registry: MlsRegistryTable;
}
