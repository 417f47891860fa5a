// Kysely types of the boundaries tables (migration 2026-11-21T1910-boundaries).
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../db/types.js';
import type { BoundaryGeometry } from './boundaries.geometry.js';

/** `point` read by pg as {x, y}; written as an SQL expression. */
export type PointColumn = ColumnType<{ x: number; y: number }, string, string>;

export interface BoundariesTable {
  id: Generated<string>;
  external_id: string;
  boundary_type: string;
  title: string;
  overridden_title: string | null;
  country: string | null;
  state: string | null;
  subtitle: Generated<string>;
  aliases: Generated<string>;
  codes: Generated<string[]>;
  population: number | null;
  center: PointColumn;
  geometry: ColumnType<BoundaryGeometry, string, string>;
  search_key: string;
  searchable: ColumnType<string, string, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export interface BoundaryRingsTable {
  boundary: string;
  polygon_index: number;
  ring_index: number;
  is_hole: boolean;
  polygon: ColumnType<string, string, string>;
  box: ColumnType<string, string, string>;
}

export interface BoundariesTables {
  boundaries: BoundariesTable;
  boundary_rings: BoundaryRingsTable;
}
