// A listing's summary (spec §6: id, mls, mls_number, status, price, address) by id or by MLS number, for
// records that point at a listing (contact timeline activities, leads).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { findListingSummaryRow } from './listings.repository.js';

export interface ListingSummary {
  id: string;
  mls: string;
  mls_number: string;
  status: string;
  price: number | null;
  address: string | null;
}

/** The live listing with this id, or with this MLS number (in `mls` when given; the newest when several). */
export async function findListingSummary(
  db: Kysely<DB>,
  by: { id: string } | { mls_number: string; mls?: string | null },
): Promise<ListingSummary | undefined> {
  const row = await findListingSummaryRow(db, by);
  if (!row) return undefined;
  return {
    id: row.id,
    mls: row.mls,
    mls_number: row.mls_number,
    status: row.status,
    price: row.price,
    address: row.full_address ?? row.street_address,
  };
}
