// Criteria → SQL predicates on `listings as l`. Every user value travels as a bind parameter; the SQL text only
// ever holds column names chosen here. Each predicate is written in the form its index answers:
// `location <@ polygon` (GiST), `agent_muis && array` (GIN), `search_tsv @@ tsquery` (GIN), ranges (btree).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { boundaryContainsPoint, ringsContainPoint, type ContainmentRing } from '../../boundaries/index.js';
import { DEFAULT_CURRENCY, TRI_STATE_FLAGS, type Location } from './search.schemas.js';
import type { Criteria } from './search.validation.js';

export interface FilterContext {
  /** "Now" for open houses (deps.clock), so tests can move time. */
  now: Date;
  /**
   * mls_unique_id of every agent linked to a member of the criteria's brands (or their sub-brands), resolved by
   * the service after its access check. Required when criteria.brands is set. A constant array (not a subquery)
   * on purpose: with a subquery the planner cannot estimate `agent_muis && …` and, under a price sort, walked the
   * whole price index (8 s on 1M rows) instead of reading the few matching rows (< 1 ms).
   */
  brandAgentMuis?: string[] | Expression<string[]>;
  /**
   * The rings of the criteria's boundaries (boundaries module, `containmentRings`), resolved by the service after it
   * checked they exist. Required when criteria.boundaries is set: the containment test takes them as constants, so
   * the listing index finds the candidates by the outer rings' boxes (and polygon) and each candidate costs a few
   * comparisons instead of a subquery over boundary_rings (without any box PostgreSQL scanned every listing: 1.3 s
   * on 1M rows; with the boxes and a subquery per candidate, ~5 µs each). `readWhenEvaluated` (the ids as an SQL
   * expression) is the stored form of saved-search matching (compileStoredSearch), which must not depend on what
   * the rings are when it is compiled: the table form of the same rule (boundaryContainsPoint) reads them then;
   * matching tests a few listings per search, fetched by key, so the per-listing subquery costs little there.
   */
  boundaryRings?: ContainmentRing[] | { readWhenEvaluated: Expression<string[]> };
}

const col = (name: string) => sql.ref(`l.${name}`);
const texts = (values: string[]) => sql`${values}::text[]`;

/** Postgres polygon literal `((lon,lat),…)`: x = longitude, y = latitude, as the listing `point` stores them. */
export function polygonLiteral(points: Location[]): string {
  return `(${points.map((p) => `(${p.longitude},${p.latitude})`).join(',')})`;
}

export function compileFilters(criteria: Criteria, context: FilterContext): Expression<SqlBool>[] {
  // Soft-deleted listings are invisible (decisions §1).
  const where: RawBuilder<SqlBool>[] = [sql<SqlBool>`${col('deleted_at')} is null`];
  const add = (predicate: RawBuilder<unknown>) => where.push(predicate as RawBuilder<SqlBool>);
  const atLeast = (column: string, value: number | undefined) =>
    value !== undefined && add(sql`${col(column)} >= ${value}`);
  const atMost = (column: string, value: number | undefined) =>
    value !== undefined && add(sql`${col(column)} <= ${value}`);
  const oneOf = (column: string, values: string[] | undefined) =>
    values && add(sql`${col(column)} = any(${texts(values)})`);
  const overlaps = (column: string, values: string[] | undefined) =>
    values && add(sql`${col(column)} && ${texts(values)}`);

  // Price is in the search's currency: with a price bound, listings priced in another currency cannot match.
  atLeast('price', criteria.minimum_price);
  atMost('price', criteria.maximum_price);
  if (criteria.minimum_price !== undefined || criteria.maximum_price !== undefined)
    add(sql`${col('currency')} = ${criteria.currency ?? DEFAULT_CURRENCY}`);
  atLeast('square_meters', criteria.minimum_square_meters);
  atMost('square_meters', criteria.maximum_square_meters);
  atLeast('lot_square_meters', criteria.minimum_lot_square_meters);
  atMost('lot_square_meters', criteria.maximum_lot_square_meters);
  atLeast('bedroom_count', criteria.minimum_bedrooms);
  atMost('bedroom_count', criteria.maximum_bedrooms);
  atLeast('bathroom_count', criteria.minimum_bathrooms);
  atMost('bathroom_count', criteria.maximum_bathrooms);
  atLeast('year_built', criteria.minimum_year_built);
  atMost('year_built', criteria.maximum_year_built);
  atLeast('parking_spaces_total', criteria.minimum_parking_spaces);
  atLeast('number_of_pets_allowed', criteria.number_of_pets_allowed);

  oneOf('property_type', criteria.property_types);
  oneOf('property_subtype', criteria.property_subtypes);
  oneOf('status', criteria.listing_statuses);
  oneOf('postal_code', criteria.postal_codes);
  oneOf('list_agent_mui', criteria.list_agents);
  oneOf('selling_agent_mui', criteria.selling_agents);
  oneOf('list_office_mls_id', criteria.list_offices);
  oneOf('selling_office_mls_id', criteria.selling_offices);
  // agent_muis / office_mls_ids hold every filled slot (8 agents, 4 offices), so "any slot" is one GIN lookup.
  overlaps('agent_muis', criteria.agents);
  overlaps('office_mls_ids', criteria.offices);

  if (criteria.points) add(sql`${col('location')} <@ ${polygonLiteral(criteria.points)}::polygon`);
  if (criteria.boundaries) {
    if (!context.boundaryRings)
      throw new Error('compileFilters: boundaries need context.boundaryRings (resolved by the service)');
    // Inside any of them, holes honoured, edges inclusive (boundaries module owns the geometry rules).
    const rings = context.boundaryRings;
    add(
      Array.isArray(rings)
        ? ringsContainPoint(rings, col('location'))
        : boundaryContainsPoint(rings.readWhenEvaluated, col('location')),
    );
  }
  if (criteria.brands) {
    if (!context.brandAgentMuis)
      throw new Error('compileFilters: brands need context.brandAgentMuis (resolved by the service)');
    const agents = context.brandAgentMuis;
    add(sql`${col('agent_muis')} && ${Array.isArray(agents) ? texts(agents) : agents}`);
  }

  for (const flag of TRI_STATE_FLAGS) {
    const wanted = criteria[flag];
    // false also admits unknown (null): "no pool" searches should not hide listings that never said.
    if (wanted === true) add(sql`${col(flag)} is true`);
    else if (wanted === false) add(sql`${col(flag)} is not true`);
  }
  if (criteria.office_exclusive !== undefined) add(sql`${col('office_exclusive')} = ${criteria.office_exclusive}`);
  if (criteria.open_house === true) add(sql`${col('open_house_until')} > ${context.now}`);

  if (criteria.minimum_sold_date !== undefined) {
    add(sql`(${col('status')} <> 'Sold' or ${col('close_date')} >= to_timestamp(${criteria.minimum_sold_date}))`);
  }
  if (criteria.minimum_list_date !== undefined)
    add(sql`${col('list_date')} >= to_timestamp(${criteria.minimum_list_date})`);
  if (criteria.maximum_list_date !== undefined)
    add(sql`${col('list_date')} <= to_timestamp(${criteria.maximum_list_date})`);

  if (criteria.search) add(sql`${col('search_tsv')} @@ websearch_to_tsquery('english', ${criteria.search})`);
  if (criteria.content) add(sql`${col('content_tsv')} @@ plainto_tsquery('english', ${criteria.content})`);
  if (criteria.address) add(sql`${col('address_tsv')} @@ plainto_tsquery('english', ${criteria.address})`);
  return where;
}

/** The predicates joined by AND (true when there are none). */
export function whereClause(where: Expression<SqlBool>[]): RawBuilder<unknown> {
  return where.length === 0 ? sql`true` : sql.join(where, sql` and `);
}

/** The listing's MLS number is one of these (the legacy `mls_numbers` anchor). */
export function mlsNumberIn(numbers: string[]): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref('l.mls_number')} = any(${numbers}::text[])`;
}

/** These ids as a uuid[] parameter. */
export function uuidArray(ids: string[]): RawBuilder<string[]> {
  return sql<string[]>`${ids}::uuid[]`;
}

/** Every id names a row of the table that is not deleted (what a run checks before it compiles). */
export function everyLive(table: 'brands' | 'boundaries', ids: Expression<string[]>): Expression<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from unnest(${ids}) as named(id) where not exists (select 1 from ${sql.table(table)} as t where t.id = named.id and t.deleted_at is null))`;
}

/**
 * Listings a brand's public site may show to anyone: on or recently off the market (not withdrawn, expired,
 * cancelled or temporarily off), and not office exclusive. `table` names the listings table in the statement (the
 * search statements read `l`; the public listing page reads `listings`).
 */
export const PUBLIC_STATUSES = ['Active', 'Coming Soon', 'Active Under Contract', 'Pending', 'Sold', 'Leased'] as const;
export function publiclyDisplayable(table = 'l'): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${table}.status`)} = any(${[...PUBLIC_STATUSES]}::text[]) and ${sql.ref(`${table}.office_exclusive`)} is not true)`;
}
