// Listing search: validate criteria, check the brands they name, compile, run one statement, present the page.
// Every endpoint of search.routes.ts (current and deprecated) ends here.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Deps } from '../../../deps.js';
import { errors } from '../../../errors.js';
import type { Actor } from '../../../platform/auth.js';
import { requireAccess, subtreeIds } from '../../brands/access.js';
import { compileFilters } from './search.filters.js';
import { runCount, runSearch, type TotalStrategy } from './search.query.js';
import type { LegacySearchQuery, SearchBody, SearchCriteria, SearchQuery } from './search.schemas.js';
import { proposedTitle } from './search.title.js';
import { ANCHOR_MESSAGE, normalizeCriteria, requireAnchor, resolveSort, type Criteria, type ResolvedSort } from './search.validation.js';
import { loadSearchResults, type SearchResultRecord } from './search.records.js';
import type { ListingEmbeds } from '../listings.presenter.js';

const DEFAULT_LIMIT = 50;

export interface SearchRequest {
  criteria: SearchCriteria;
  sort: ResolvedSort;
  start: number;
  limit: number;
  /** Exact MLS numbers (body `mls_number`, legacy `?mls_number=`): an anchor of their own. */
  mlsNumbers?: string[];
  /** Ad-hoc body searches need an anchor like saved searches (docs/listing-search.md); the legacy GET does not. */
  anchor: 'required' | 'not-required';
  totalStrategy?: TotalStrategy;
  /** Related records to embed in each listing (associations): no extra statement. */
  embed?: ListingEmbeds;
}

export interface SearchResult {
  listings: SearchResultRecord[];
  total: number;
  proposedTitle: string;
}

interface Prepared {
  where: Expression<SqlBool>[];
  title: string;
}

async function prepare(deps: Deps, actor: Actor, request: Omit<SearchRequest, 'sort' | 'start' | 'limit'>): Promise<Prepared> {
  const criteria = normalizeCriteria(request.criteria);
  const mlsNumbers = request.mlsNumbers?.map((number) => number.trim()).filter((number) => number !== '') ?? [];
  if (request.anchor === 'required' && mlsNumbers.length === 0) requireAnchor(criteria);
  const brandAgentMuis = criteria.brands ? await agentsOfBrands(deps, await reachableBrandScope(deps, actor, criteria.brands)) : undefined;
  const boundaries = criteria.boundaries ? await existingBoundaries(deps, criteria.boundaries) : undefined;
  const where = compileFilters(criteria, {
    now: deps.clock.now(),
    ...(brandAgentMuis ? { brandAgentMuis } : {}),
    ...(boundaries ? { boundaryBoxes: boundaries.boxes } : {}),
  });
  if (mlsNumbers.length > 0) where.push(sql<SqlBool>`${sql.ref('l.mls_number')} = any(${mlsNumbers}::text[])`);
  return { where, title: titleOf(criteria, boundaries?.titles) };
}

function titleOf(criteria: Criteria, boundaryTitles: string[] | undefined): string {
  return proposedTitle(criteria, boundaryTitles ? { boundaryTitles } : {});
}

export async function searchListings(deps: Deps, actor: Actor, request: SearchRequest): Promise<SearchResult> {
  const { where, title } = await prepare(deps, actor, request);
  const page = await runSearch(deps.db, { where, sort: request.sort, start: request.start, limit: request.limit }, request.totalStrategy);
  const listings = await loadSearchResults(deps.db, page.ids, deps.clock.now(), request.embed);
  return { listings, total: page.total, proposedTitle: title };
}

export async function countListings(deps: Deps, actor: Actor, request: Omit<SearchRequest, 'sort' | 'start' | 'limit'>): Promise<{ total: number; proposedTitle: string }> {
  const { where, title } = await prepare(deps, actor, request);
  return { total: await runCount(deps.db, where), proposedTitle: title };
}

/** Each named brand must be reachable (403 otherwise); a brand stands for itself and its sub-brands. */
async function reachableBrandScope(deps: Deps, actor: Actor, brands: string[]): Promise<string[]> {
  const scope = new Set<string>();
  for (const brand of new Set(brands)) {
    await requireAccess(deps.db, actor, brand, 'Member', { denied: 'forbidden' });
    for (const id of await subtreeIds(deps.db, brand)) scope.add(id);
  }
  return [...scope];
}

/** mls_unique_id of the agents linked to live members of these brands. */
async function agentsOfBrands(deps: Deps, brandIds: string[]): Promise<string[]> {
  const rows = await deps.db
    .selectFrom('memberships as m')
    .innerJoin('user_agents as ua', 'ua.user', 'm.user')
    .innerJoin('agents as a', 'a.id', 'ua.agent')
    .select('a.mls_unique_id')
    .distinct()
    .where('m.brand', 'in', brandIds)
    .where('m.deleted_at', 'is', null)
    .where('a.deleted_at', 'is', null)
    .execute();
  return rows.map((row) => row.mls_unique_id);
}

/** Unknown or deleted boundaries are a 400 naming them; titles feed proposed_title, outer-ring boxes the index. */
async function existingBoundaries(deps: Deps, ids: string[]): Promise<{ titles: string[]; boxes: string[] }> {
  const rows = await deps.db
    .selectFrom('boundaries')
    .select(['id', 'title', 'overridden_title'])
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row.overridden_title ?? row.title]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) throw errors.invalidField('boundaries', `has unknown boundaries: ${missing.join(', ')}`);
  const boxes = await deps.db
    .selectFrom('boundary_rings')
    .select(sql<string>`box::text`.as('box'))
    .where('boundary', 'in', ids)
    .where('is_hole', '=', false)
    .execute();
  return { titles: ids.map((id) => byId.get(id)!), boxes: boxes.map((row) => row.box) };
}

/** An HTTP body search: body fields win over the same fields in the query string. */
export interface BodySearch {
  body: SearchBody;
  query: SearchQuery;
  embed?: ListingEmbeds;
}

function fromBody({ body, query, embed }: BodySearch): SearchRequest {
  const { sort, order_by: bodyOrderBy, start, limit, brand, mls_number: mlsNumber, ...criteria } = body;
  return {
    criteria: brand ? { ...criteria, brands: [...(criteria.brands ?? []), brand] } : criteria,
    ...(mlsNumber != null ? { mlsNumbers: [mlsNumber].flat() } : {}),
    sort: resolveSort(sort, bodyOrderBy ?? query.order_by),
    start: start ?? query.start ?? 0,
    limit: limit ?? query.limit ?? DEFAULT_LIMIT,
    anchor: 'required',
    ...(embed ? { embed } : {}),
  };
}

/** POST /brands/:brand/listings and POST /valerts: the actor must be a member of the brand (403 otherwise). */
export async function searchInBrand(deps: Deps, actor: Actor, brand: string, search: BodySearch): Promise<SearchResult> {
  await requireAccess(deps.db, actor, brand, 'Member', { denied: 'forbidden' });
  return searchListings(deps, actor, fromBody(search));
}

export async function countInBrand(deps: Deps, actor: Actor, brand: string, search: BodySearch): Promise<{ total: number; proposedTitle: string }> {
  await requireAccess(deps.db, actor, brand, 'Member', { denied: 'forbidden' });
  return countListings(deps, actor, fromBody(search));
}

/**
 * GET /listings/search (deprecated): `q` (web-search text) or `mls_number` is its anchor — without either the
 * request would scan every listing, so it is refused like an unanchored body search.
 */
export async function legacySearch(deps: Deps, actor: Actor, query: LegacySearchQuery, embed?: ListingEmbeds): Promise<SearchResult> {
  const q = query.q?.trim();
  const mlsNumber = query.mls_number?.trim();
  if (!q && !mlsNumber) throw errors.badRequest(`${ANCHOR_MESSAGE}: send q or mls_number`);
  return searchListings(deps, actor, {
    criteria: { ...(q ? { search: q } : {}), ...(query.status ? { listing_statuses: query.status } : {}) },
    ...(mlsNumber ? { mlsNumbers: [mlsNumber] } : {}),
    sort: resolveSort(undefined, query.order_by),
    start: query.start ?? 0,
    limit: query.limit ?? DEFAULT_LIMIT,
    anchor: 'not-required',
    ...(embed ? { embed } : {}),
  });
}
