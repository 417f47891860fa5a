// The statements of listing search. The ONE statement of a search: exact total + the page's ids in order; its
// predicates and sort come from filters.query.ts / sort.query.ts, and this file only assembles them. And what a
// search reads outside the listings table before it compiles: the agents of the brands a search names, which joins
// the brands module's memberships to the users module's agents on the search's hot path, in one statement (so it
// stays here rather than going through those modules' faces).
//
// Three ways to get the exact total (docs/listing-search.md has the measurements):
// - 'matches' (default): `with matches as materialized (select id, sort keys … where F) select (select count(*)
//   from matches), array(select id from matches order by … limit … offset …)` — the listings are read once, and
//   the statement returns one row even when the page is past the end.
// - 'subquery': the same without the CTE: F is evaluated twice (count, page); as fast when both are index-only,
//   twice as slow when the filter needs the heap (text search: 610 ms vs 290 ms on 1M rows).
// - 'window': `select id, count(*) over () … limit … offset …` — one scan, but an empty page (offset past the
//   end) loses the total, which then costs a second statement.
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../../db/types.js';
import { subtreeQuery } from '../../brands/index.js';
import { whereClause } from './filters.query.js';
import { compileSort, sortExpression } from './sort.query.js';
import type { ResolvedSort } from './search.validation.js';

export type TotalStrategy = 'matches' | 'subquery' | 'window';

export interface SearchPlan {
  where: Expression<SqlBool>[];
  sort: ResolvedSort;
  start: number;
  limit: number;
}

export interface SearchPage {
  ids: string[];
  total: number;
}

function orderClause(sort: ResolvedSort): RawBuilder<unknown> {
  return sql.join(compileSort(sort));
}

/** The default form: exposed so tests can read the SQL and its parameters. */
export function matchesStatement(plan: SearchPlan): RawBuilder<{ total: number; ids: string[] }> {
  const keys = plan.sort.map(({ by }, index) => sql`${sortExpression(by)} as ${sql.ref(`k${index}`)}`);
  const order = compileSort(plan.sort, (index) => sql.ref(`k${index}`), sql.ref('id'));
  return sql<{ total: number; ids: string[] }>`with matches as materialized (
      select ${sql.join([sql.ref('l.id'), ...keys])} from listings as l where ${whereClause(plan.where)}
    )
    select (select count(*) from matches)::int as total,
      array(select id from matches order by ${sql.join(order)} limit ${plan.limit} offset ${plan.start}) as ids`;
}

export function searchStatement(plan: SearchPlan): RawBuilder<{ total: number; ids: string[] }> {
  const where = whereClause(plan.where);
  return sql<{ total: number; ids: string[] }>`select
    (select count(*) from listings as l where ${where})::int as total,
    array(select l.id from listings as l where ${where} order by ${orderClause(plan.sort)} limit ${plan.limit} offset ${plan.start}) as ids`;
}

export function windowStatement(plan: SearchPlan): RawBuilder<{ id: string; total: number }> {
  return sql<{ id: string; total: number }>`select l.id, (count(*) over ())::int as total from listings as l
    where ${whereClause(plan.where)} order by ${orderClause(plan.sort)} limit ${plan.limit} offset ${plan.start}`;
}

export function countStatement(where: Expression<SqlBool>[]): RawBuilder<{ total: number }> {
  return sql<{ total: number }>`select count(*)::int as total from listings as l where ${whereClause(where)}`;
}

export async function runSearch(
  db: Kysely<DB>,
  plan: SearchPlan,
  strategy: TotalStrategy = 'matches',
): Promise<SearchPage> {
  if (strategy !== 'window') {
    const { rows } = await (strategy === 'matches' ? matchesStatement(plan) : searchStatement(plan)).execute(db);
    const row = rows[0];
    return { ids: row?.ids ?? [], total: row?.total ?? 0 };
  }
  const { rows } = await windowStatement(plan).execute(db);
  if (rows.length > 0) return { ids: rows.map((r) => r.id), total: rows[0]!.total };
  if (plan.start === 0) return { ids: [], total: 0 };
  const counted = await countStatement(plan.where).execute(db);
  return { ids: [], total: counted.rows[0]?.total ?? 0 };
}

export async function runCount(db: Kysely<DB>, where: Expression<SqlBool>[]): Promise<number> {
  const { rows } = await countStatement(where).execute(db);
  return rows[0]?.total ?? 0;
}

/** mls_unique_id of the agents linked to live members of these brands. */
export async function findAgentMuisOfBrands(db: Kysely<DB>, brandIds: string[]): Promise<string[]> {
  const { rows } = await agentsOfBrandsQuery(sql`${brandIds}::uuid[]`).execute(db);
  return rows.map((row) => row.mls_unique_id);
}

/** The statement of findAgentMuisOfBrands for a uuid[] expression (a constant for a run, a subquery for matching). */
export function agentsOfBrandsQuery(brandIds: Expression<string[]>): RawBuilder<{ mls_unique_id: string }> {
  return sql<{ mls_unique_id: string }>`select distinct a.mls_unique_id
    from memberships as m join user_agents as ua on ua."user" = m."user" join agents as a on a.id = ua.agent
    where m.brand = any(${brandIds}) and m.deleted_at is null and a.deleted_at is null`;
}

/**
 * The agents of these brands and their sub-brands as an array expression, read when the statement runs: the form a
 * stored search compiles to (saved-search matching), which must not depend on who the members are when it is saved.
 */
export function agentMuisOfBrandSubtrees(brandIds: Expression<string[]>): RawBuilder<string[]> {
  return sql<string[]>`array(${agentsOfBrandsQuery(sql`array(${subtreeQuery(brandIds)})`)})`;
}
