// Kysely types of the deals table (migration 2026-11-24T0100-deals).
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../../db/types.js';

type TsVector = ColumnType<string, string | undefined, string>;
type Json<T> = ColumnType<T, string, string>;

/** A deal's context: key → typed value (deals.context.ts is the catalogue). */
export type DealContext = Record<string, string | number>;

export interface DealRoleValue {
  id: string;
  role: string;
  legal_first_name: string | null;
  legal_last_name: string | null;
  email: string | null;
  phone_number: string | null;
  contact: string | null;
  user: string | null;
  created_at: number;
}

export interface DealsTable {
  id: Generated<string>;
  brand: string;
  deal_type: string;
  property_type: string;
  title: string;
  title_given: string | null;
  listing: string | null;
  status: string;
  context: Json<DealContext>;
  roles: Json<DealRoleValue[]>;
  search_tsv: TsVector;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface DealsTables {
  deals: DealsTable;
}
