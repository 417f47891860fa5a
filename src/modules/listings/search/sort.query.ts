// The sort descriptor → ORDER BY terms. Nulls sort last in both directions (spec §2.5), and `l.id` always ends
// the list so that equal keys keep one order and paging with start/limit never repeats or skips a row.
import { sql, type RawBuilder } from 'kysely';
import type { SortKey } from './search.schemas.js';
import type { ResolvedSort } from './search.validation.js';

/** decisions §5 order: what is on the market first, what left it last (`status` sorts by this rank). */
export const STATUS_RANK = [
  'Active',
  'Coming Soon',
  'Active Under Contract',
  'Pending',
  'Sold',
  'Leased',
  'Temp Off Market',
  'Withdrawn',
  'Expired',
  'Cancelled',
];

const SORT_EXPRESSIONS: Record<SortKey, () => RawBuilder<unknown>> = {
  status: () => sql`array_position(${STATUS_RANK}::text[], ${sql.ref('l.status')})`,
  price: () => sql.ref('l.price'),
  close_price: () => sql.ref('l.close_price'),
  mls: () => sql.ref('l.mls_number'),
  list_date: () => sql.ref('l.list_date'),
  bedrooms: () => sql.ref('l.bedroom_count'),
  bathrooms: () => sql.ref('l.bathroom_count'),
  // Areas are stored in m² (decisions §5): "square_feet" orders by interior area, whatever the unit.
  square_feet: () => sql.ref('l.square_meters'),
  lot_size: () => sql.ref('l.lot_square_meters'),
  year_built: () => sql.ref('l.year_built'),
};

export function sortExpression(by: SortKey): RawBuilder<unknown> {
  return SORT_EXPRESSIONS[by]();
}

/**
 * ORDER BY terms; an empty sort still orders by id (stable pages, see docs). `keyRef(i)` names the i-th key
 * when the keys were already selected under aliases (the materialized matches of search.repository.ts).
 */
export function compileSort(
  sort: ResolvedSort,
  keyRef?: (index: number) => RawBuilder<unknown>,
  idRef: RawBuilder<unknown> = sql.ref('l.id'),
): RawBuilder<unknown>[] {
  const terms = sort.map(
    ({ by, dir }, index) =>
      sql`${keyRef ? keyRef(index) : sortExpression(by)} ${sql.raw(dir === 'desc' ? 'desc' : 'asc')} nulls last`,
  );
  return [...terms, sql`${idRef} asc`];
}
