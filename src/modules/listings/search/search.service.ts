// Listing search: validate criteria, check the brands they name, compile, run one statement, present the page.
// Every endpoint of search.routes.ts (current and deprecated) ends here.
import type { Expression, SqlBool } from 'kysely';
import type { Deps } from '../../../platform/deps.js';
import { errors } from '../../../errors.js';
import type { Actor } from '../../auth/index.js';
import { requireAccess, subtreeIds } from '../../brands/index.js';
import { compileFilters, everyLive, mlsNumberIn, publiclyDisplayable, uuidArray } from './filters.query.js';
import {
  agentMuisOfBrandSubtrees,
  findAgentMuisOfBrands,
  runCount,
  runSearch,
  type SearchPage,
  type TotalStrategy,
} from './search.repository.js';
import type { LegacySearchQuery, SearchBody, SearchCriteria, SearchQuery } from './search.schemas.js';
import { proposedTitle } from './search.title.js';
import {
  ANCHOR_MESSAGE,
  normalizeCriteria,
  requireAnchor,
  resolveSort,
  type Criteria,
  type ResolvedSort,
} from './search.validation.js';
import { loadSearchResults } from './search.records.js';
import { containmentRings, findLiveBoundaryTitles } from '../../boundaries/index.js';

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
  /** Anonymous searches (no token) see publicly displayable listings only. */
  publicOnly?: boolean;
  totalStrategy?: TotalStrategy;
  /** Related records to embed in each listing (associations): no extra statement. */
  embed?: ListingEmbeds;
}

export interface SearchResult {
  /** The page's listing records as JSON texts (SearchResultSchema), in order: sent as they are. */
  records: string[];
  total: number;
  proposedTitle: string;
}

interface Prepared {
  where: Expression<SqlBool>[];
  title: string;
}

/**
 * An anonymous caller (null) names brands whose listings it may see (decisions §19): they must exist, and only
 * publicly displayable listings match. A user names brands they can reach (403 otherwise).
 */
async function prepare(
  deps: Deps,
  actor: Actor | null,
  request: Omit<SearchRequest, 'sort' | 'start' | 'limit'>,
): Promise<Prepared> {
  const criteria = normalizeCriteria(request.criteria);
  const mlsNumbers = request.mlsNumbers?.map((number) => number.trim()).filter((number) => number !== '') ?? [];
  if (request.anchor === 'required' && mlsNumbers.length === 0) requireAnchor(criteria);
  const scope = criteria.brands
    ? await (actor ? reachableBrandScope(deps, actor, criteria.brands) : existingBrandScope(deps, criteria.brands))
    : undefined;
  const { where, boundaries } = await compileWithScope(deps, criteria, scope);
  if (mlsNumbers.length > 0) where.push(mlsNumberIn(mlsNumbers));
  if (request.publicOnly) where.push(publiclyDisplayable());
  return { where, title: titleOf(criteria, boundaries?.titles) };
}

/**
 * The WHERE of a stored search for saved-search matching: the predicates a run of it compiles (normalized, anchored,
 * a brand standing for its subtree), except that what a run reads from the database before compiling is read by
 * subqueries when the WHERE is evaluated instead — the agents of the brands' members, the boundaries' rings (the
 * table form of the same containment rule), and whether every named brand and boundary still exists (a run answers 404 or 400 otherwise, and finds
 * nothing: so does this WHERE). It thus depends on the criteria and `now` alone, and can be stored with the search.
 * No actor: the owner's access to the brands was checked when the search was saved. Reads `l` like every search
 * statement. Throws the run's 400 when the criteria cannot run (no anchor, a bad ring).
 */
export function compileStoredSearch(input: SearchCriteria, now: Date): Expression<SqlBool>[] {
  const criteria = normalizeCriteria(input);
  requireAnchor(criteria);
  const brands = criteria.brands ? uuidArray([...new Set(criteria.brands)]) : undefined;
  const boundaries = criteria.boundaries ? uuidArray(criteria.boundaries) : undefined;
  const where = compileFilters(criteria, {
    now,
    ...(brands ? { brandAgentMuis: agentMuisOfBrandSubtrees(brands) } : {}),
    ...(boundaries ? { boundaryRings: { readWhenEvaluated: boundaries } } : {}),
  });
  if (brands) where.push(everyLive('brands', brands));
  if (boundaries) where.push(everyLive('boundaries', boundaries));
  return where;
}

/** Criteria → predicates, with the brand scope already resolved (and checked) by the caller. */
async function compileWithScope(deps: Pick<Deps, 'db' | 'clock'>, criteria: Criteria, scope: string[] | undefined) {
  const brandAgentMuis = scope ? await findAgentMuisOfBrands(deps.db, scope) : undefined;
  const boundaries = criteria.boundaries ? await existingBoundaries(deps, criteria.boundaries) : undefined;
  const boundaryRings = criteria.boundaries
    ? await containmentRings(deps.db, [...new Set(criteria.boundaries)])
    : undefined;
  const where = compileFilters(criteria, {
    now: deps.clock.now(),
    ...(brandAgentMuis ? { brandAgentMuis } : {}),
    ...(boundaryRings ? { boundaryRings } : {}),
  });
  return { where, boundaries };
}

/**
 * The criteria of a saved search, checked as a search would check them (normalized, anchored, brands the actor
 * reaches, boundaries that exist) without running it; with the proposed title the search would answer.
 */
export async function checkSavedCriteria(
  deps: Deps,
  actor: Actor,
  input: SearchCriteria,
): Promise<{ criteria: Criteria; proposedTitle: string }> {
  const criteria = normalizeCriteria(input);
  requireAnchor(criteria);
  if (criteria.brands) await reachableBrandScope(deps, actor, criteria.brands);
  const boundaries = criteria.boundaries ? await existingBoundaries(deps, criteria.boundaries) : undefined;
  return { criteria, proposedTitle: titleOf(criteria, boundaries?.titles) };
}

function titleOf(criteria: Criteria, boundaryTitles: string[] | undefined): string {
  return proposedTitle(criteria, boundaryTitles ? { boundaryTitles } : {});
}

async function searchPage(deps: Deps, actor: Actor | null, request: SearchRequest) {
  const { where, title } = await prepare(deps, actor, request);
  const page = await runSearch(
    deps.db,
    { where, sort: request.sort, start: request.start, limit: request.limit },
    request.totalStrategy,
  );
  return { page, title };
}

export async function searchListings(deps: Deps, actor: Actor | null, request: SearchRequest): Promise<SearchResult> {
  const { page, title } = await searchPage(deps, actor, request);
  const records = await loadSearchResults(deps.db, page.ids, deps.clock.now(), request.embed);
  return { records, total: page.total, proposedTitle: title };
}

/**
 * A search's page as ids and the total, without the listing records: for a caller that shows the listings its own
 * way (the alert results page reads its cards' few fields), which would otherwise build and parse 24 whole records.
 */
export async function searchListingIds(
  deps: Deps,
  actor: Actor | null,
  request: Omit<SearchRequest, 'embed'>,
): Promise<SearchPage> {
  return (await searchPage(deps, actor, request)).page;
}

export async function countListings(
  deps: Deps,
  actor: Actor | null,
  request: Omit<SearchRequest, 'sort' | 'start' | 'limit'>,
): Promise<{ total: number; proposedTitle: string }> {
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

/** Each named brand must exist (404 otherwise, as for its public profile); a brand stands for its subtree. */
async function existingBrandScope(deps: Pick<Deps, 'db'>, brands: string[]): Promise<string[]> {
  const scope = new Set<string>();
  for (const brand of new Set(brands)) {
    const subtree = await subtreeIds(deps.db, brand);
    if (subtree.length === 0) throw errors.notFound('Brand');
    for (const id of subtree) scope.add(id);
  }
  return [...scope];
}

/** Unknown or deleted boundaries are a 400 naming them; their titles feed proposed_title. */
async function existingBoundaries(deps: Pick<Deps, 'db'>, ids: string[]): Promise<{ titles: string[] }> {
  const rows = await findLiveBoundaryTitles(deps.db, ids);
  const byId = new Map(rows.map((row) => [row.id, row.overridden_title ?? row.title]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) throw errors.invalidField('boundaries', `has unknown boundaries: ${missing.join(', ')}`);
  return { titles: ids.map((id) => byId.get(id)!) };
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
export async function searchInBrand(
  deps: Deps,
  actor: Actor,
  brand: string,
  search: BodySearch,
): Promise<SearchResult> {
  await requireAccess(deps.db, actor, brand, 'Member', { denied: 'forbidden' });
  return searchListings(deps, actor, fromBody(search));
}

export async function countInBrand(
  deps: Deps,
  actor: Actor,
  brand: string,
  search: BodySearch,
): Promise<{ total: number; proposedTitle: string }> {
  await requireAccess(deps.db, actor, brand, 'Member', { denied: 'forbidden' });
  return countListings(deps, actor, fromBody(search));
}

/**
 * POST /valerts and /valerts/count without a token (decisions §19): a brand's public site shows that brand's
 * listings. The brand named (X-RECHAT-BRAND or body `brand`) is the criterion; nothing private is reachable.
 */
export async function searchPublic(deps: Deps, brand: string | undefined, search: BodySearch): Promise<SearchResult> {
  return searchListings(deps, null, publicRequest(brand, search));
}

export async function countPublic(
  deps: Deps,
  brand: string | undefined,
  search: BodySearch,
): Promise<{ total: number; proposedTitle: string }> {
  return countListings(deps, null, publicRequest(brand, search));
}

function publicRequest(headerBrand: string | undefined, search: BodySearch): SearchRequest {
  const request = fromBody(search);
  const brands = [...(request.criteria.brands ?? []), ...(headerBrand ? [headerBrand] : [])];
  // Without a token the search must be about a brand: nothing else names what may be shown.
  if (brands.length === 0)
    throw errors.unauthorized(
      'Authentication is required: send Authorization: Bearer <access token>, or name a brand (X-RECHAT-BRAND or body brand) to search its public listings',
    );
  return { ...request, criteria: { ...request.criteria, brands }, publicOnly: true };
}

/**
 * GET /listings/search (deprecated): `q` (web-search text) or `mls_number` is its anchor — without either the
 * request would scan every listing, so it is refused like an unanchored body search.
 */
export async function legacySearch(
  deps: Deps,
  actor: Actor,
  query: LegacySearchQuery,
  embed?: ListingEmbeds,
): Promise<SearchResult> {
  const q = query.q?.trim();
  const mlsNumber = query.mls_number?.trim();
  if (!q && !mlsNumber) throw errors.badRequest(`${ANCHOR_MESSAGE}: send q or mls_number`);
  return searchListings(deps, actor, {
    criteria: { ...(q ? { search: q } : {}), ...(query.status ? { listing_statuses: query.status } : {}) },
    ...(mlsNumber ? { mlsNumbers: [mlsNumber] } : {}),
    sort: resolveSort(undefined, query.order_by),
    start: query.start,
    limit: query.limit,
    anchor: 'not-required',
    ...(embed ? { embed } : {}),
  });
}
