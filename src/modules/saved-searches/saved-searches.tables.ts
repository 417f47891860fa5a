// Kysely types of the saved-search tables (migration 2026-11-24T0300-saved-searches).
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, LaterTimestamp, Timestamp, UpdatedAt } from '../../db/types.js';
import type { Criteria } from '../listings/search/search.validation.js';

/** Stored criteria: normalized, without brands and boundaries (their own tables). */
export type StoredCriteria = Omit<Criteria, 'brands' | 'boundaries'>;

export interface SavedSearchesTable {
  id: Generated<string>;
  brand: string;
  created_by: string | null;
  from_user: string | null;
  title: string | null;
  proposed_title: string;
  criteria: ColumnType<StoredCriteria, string, string>;
  frequency: Generated<string>;
  send_time: number | null;
  send_weekday: number | null;
  send_monthday: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
  /** Generated from criteria (migration 2026-11-25T0200): the points polygon's bounding box, for matching. */
  area: ColumnType<string | null, never, never>;
  /** Generated from criteria: agent/office anchors as prefixed keys (la:, sa:, a:, lo:, so:, o:), for matching. */
  anchor_keys: ColumnType<string[], never, never>;
  /** Generated from criteria (migration 2026-11-28T0500): [minimum_price, maximum_price], unbounded where unset. */
  price_range: ColumnType<string, never, never>;
  /** Generated from criteria: the listing statuses it keeps, null for any. */
  statuses: ColumnType<string[] | null, never, never>;
  /**
   * The match form (migration 2026-11-28T0700, matching.forms.ts): the shape id (saved_search_shapes), the values
   * (JSON array), the engine version that compiled them and the updated_at they were compiled for.
   */
  match_shape: ColumnType<string | null, string | null | undefined, string | null>;
  match_values: ColumnType<unknown, string | null | undefined, string | null>;
  match_version: ColumnType<string | null, string | null | undefined, string | null>;
  match_for: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface SavedSearchShapesTable {
  id: string;
  text: string;
  now_params: ColumnType<number[], number[] | undefined, number[]>;
  created_at: CreatedAt;
}

export interface SavedSearchBrandsTable {
  saved_search: string;
  brand: string;
}

export interface SavedSearchBoundariesTable {
  saved_search: string;
  boundary: string;
  /** Order as the client sent them (proposed_title names them in that order). */
  position: number;
}

export interface SavedSearchContactsTable {
  saved_search: string;
  contact: string;
  frequency: string;
  send_time: number | null;
  send_weekday: number | null;
  send_monthday: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Digest bookkeeping (migration 2026-11-25T0201): null next_digest_at = compute from the schedule. */
  next_digest_at: LaterTimestamp;
  next_digest_date: ColumnType<string | null, string | null | undefined, string | null>;
  last_digest_at: LaterTimestamp;
}

/** A listing event that matched a saved search (migration 2026-11-25T0200-saved-search-matching). */
export interface SavedSearchMatchesTable {
  id: Generated<string>;
  saved_search: string;
  listing: string;
  event: string;
  event_type: string;
  event_at: Timestamp;
  created_at: CreatedAt;
  /** When the owner was notified and Instant contacts emailed (migration 2026-11-25T0201). */
  delivered_at: LaterTimestamp;
}

/** Every (search, contact, listing) ever emailed: at most once each. */
export interface SavedSearchAlertsTable {
  saved_search: string;
  contact: string;
  listing: string;
  mail_message: string | null;
  created_at: CreatedAt;
}

export interface SavedSearchDigestsTable {
  id: Generated<string>;
  saved_search: string;
  contact: string;
  local_date: ColumnType<string, string, string>;
  due_at: Timestamp;
  listings: number;
  mail_message: string | null;
  created_at: CreatedAt;
}

export interface SavedSearchTables {
  saved_searches: SavedSearchesTable;
  saved_search_brands: SavedSearchBrandsTable;
  saved_search_boundaries: SavedSearchBoundariesTable;
  saved_search_contacts: SavedSearchContactsTable;
  saved_search_matches: SavedSearchMatchesTable;
  saved_search_alerts: SavedSearchAlertsTable;
  saved_search_digests: SavedSearchDigestsTable;
  saved_search_shapes: SavedSearchShapesTable;
}
