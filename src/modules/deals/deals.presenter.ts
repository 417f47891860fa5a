// A deal as the API returns it (and as its Deals events carry it), with the associations asked for.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { epochSeconds } from '../../lib/clock.js';
import * as repo from './deals.repository.js';
import { STATUS_GROUPS, type DealRecord } from './deals.schemas.js';

const inGroup = (group: keyof typeof STATUS_GROUPS, status: string) =>
  (STATUS_GROUPS[group] as readonly string[]).includes(status);
export const isClosedStatus = (status: string) => inGroup('is_closed', status);

export function presentDeal(row: repo.DealRow): DealRecord {
  return {
    id: row.id,
    type: 'deal',
    brand: row.brand,
    deal_type: row.deal_type,
    property_type: row.property_type,
    title: row.title,
    listing: row.listing,
    status: row.status,
    is_active: inGroup('is_active', row.status),
    is_pending: inGroup('is_pending', row.status),
    is_closed: inGroup('is_closed', row.status),
    is_archived: inGroup('is_archived', row.status),
    context: row.context,
    roles: row.roles.map((role) => ({ ...role, type: 'deal_role' as const })),
    created_by: row.created_by,
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
    // Null on every answer but the Deals `Deleted` event's: a deleted deal is 404 (spec §1 convention 6).
    deleted_at: epochSeconds(row.deleted_at),
  };
}

const unique = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))];

/** Deals with `deal.brand`, `deal.listing`, `deal.created_by` embedded when asked (`deal.roles` are always in). */
export async function presentDeals(
  db: Kysely<DB>,
  rows: repo.DealRow[],
  associations: Set<string>,
): Promise<DealRecord[]> {
  const records = rows.map(presentDeal);
  if (associations.has('deal.brand')) {
    const brands = new Map((await repo.brandSummaries(db, unique(rows.map((r) => r.brand)))).map((b) => [b.id, b]));
    for (const record of records) {
      const brand = brands.get(record.brand as string);
      if (brand)
        record.brand = {
          id: brand.id,
          type: 'brand',
          name: brand.name,
          brand_type: brand.brand_type,
          parent: brand.parent,
        };
    }
  }
  if (associations.has('deal.listing')) {
    const listings = new Map(
      (await repo.listingSummaries(db, unique(rows.map((r) => r.listing)))).map((l) => [l.id, l]),
    );
    for (const record of records) {
      const listing = listings.get(record.listing as string);
      if (listing)
        record.listing = {
          id: listing.id,
          type: 'listing',
          mls: listing.mls,
          mls_number: listing.mls_number,
          status: listing.status,
          price: listing.price,
          address: listing.full_address ?? listing.street_address,
          deleted_at: epochSeconds(listing.deleted_at),
        };
    }
  }
  if (associations.has('deal.created_by')) {
    const users = new Map((await repo.userSummaries(db, unique(rows.map((r) => r.created_by)))).map((u) => [u.id, u]));
    for (const record of records) {
      const user = users.get(record.created_by as string);
      if (user)
        record.created_by = {
          id: user.id,
          type: 'user',
          first_name: user.first_name,
          last_name: user.last_name,
          display_name: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email,
          email: user.email,
          deleted_at: epochSeconds(user.deleted_at),
        };
    }
  }
  return records;
}
