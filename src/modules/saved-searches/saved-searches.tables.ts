// Kysely types of the saved-search tables (migration 2026-11-24T0300-saved-searches).
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../db/types.js';
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
}

export interface SavedSearchTables {
  saved_searches: SavedSearchesTable;
  saved_search_brands: SavedSearchBrandsTable;
  saved_search_boundaries: SavedSearchBoundariesTable;
  saved_search_contacts: SavedSearchContactsTable;
}
