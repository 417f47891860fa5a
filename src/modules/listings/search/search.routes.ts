// Listing search endpoints (decisions §5): the current POST /brands/:brand/listings and the deprecated
// POST /valerts, POST /valerts/count, GET /listings/search. Wiring only: schemas, then one service call.
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../../auth/index.js';
import { associationsOf } from '../../../platform/associations.js';
import { namedBrand, requireBrandContext } from '../../brands/index.js';
import { lenientPaging } from '../../../platform/paging.js';
import { AUTHENTICATED_ERRORS, ListEnvelope, errorResponses, sendOkListTexts } from '../../../platform/schemas.js';
import type { FeatureRoutes } from '../../../platform/feature.js';
import { declareRouteScopes } from '../../../platform/api-scopes.js';
import { listingEmbedsOf } from '../listings.presenter.js';
import { SearchResultSchema } from './search.records.js';
import {
  BrandParams,
  CountResponse,
  LegacySearchQuery,
  SearchBody,
  SearchInfo,
  SearchQuery,
} from './search.schemas.js';
import {
  countInBrand,
  countPublic,
  legacySearch,
  searchInBrand,
  searchPublic,
  type BodySearch,
} from './search.service.js';

const TAGS = ['Listings'];
const SearchResponse = ListEnvelope(SearchResultSchema, SearchInfo);
const responses = { 200: SearchResponse, ...errorResponses(...AUTHENTICATED_ERRORS) };
const publicResponses = { 200: SearchResponse, ...errorResponses(...AUTHENTICATED_ERRORS, 429) };
const PUBLIC_DESCRIPTION =
  "Without a token (existing clients' public sites): name a brand (X-RECHAT-BRAND or body `brand`) and get its publicly displayable " +
  'listings only (not withdrawn, expired, cancelled or temporarily off the market; not office exclusive), rate-limited per IP.';
const SUCCESSOR = '/brands/:brand/listings';
const BODY_DESCRIPTION =
  'Body = saved-search criteria + `sort` (or legacy `order_by`) + `start`/`limit` (default 50, max 1000; `offset` is another ' +
  'name for `start`; all three may also be decimal-integer strings, as existing clients send them). ' +
  'Needs an anchor (points, boundaries, brands, agents or offices). See docs/listing-search.md.';

/**
 * Body with paging and legacy order_by that may also come in the query string (body wins), and the records the
 * `associations` ask to embed in each listing (`listing.list_agent`, `listing.selling_agent`, `listing.mls_info`).
 */
function bodySearch(request: FastifyRequest & { body: SearchBody | undefined; query: SearchQuery }): BodySearch {
  return { body: request.body ?? {}, query: request.query, embed: listingEmbedsOf(associationsOf(request)) };
}

export const listingSearchRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'listings:read');
  app.post(
    '/brands/:brand/listings',
    {
      preValidation: lenientPaging,
      schema: {
        tags: TAGS,
        summary: 'Search listings',
        description: BODY_DESCRIPTION,
        params: BrandParams,
        querystring: SearchQuery,
        body: SearchBody,
        response: responses,
      },
    },
    async (request, reply) => {
      const result = await searchInBrand(deps, actorOf(request), request.params.brand, bodySearch(request));
      return sendOkListTexts(reply, result.records, result.total, { proposed_title: result.proposedTitle });
    },
  );

  app.post(
    '/valerts',
    {
      preValidation: lenientPaging,
      config: { auth: 'optional', rateLimit: 'anonymous', deprecated: { date: '2028-01-01', successor: SUCCESSOR } },
      schema: {
        tags: TAGS,
        summary: 'Search listings (deprecated)',
        description: `Deprecated 2028-01-01: use POST ${SUCCESSOR}. Brand from X-RECHAT-BRAND or the active brand. ${BODY_DESCRIPTION} ${PUBLIC_DESCRIPTION}`,
        querystring: SearchQuery,
        body: SearchBody,
        response: publicResponses,
        deprecated: true,
      },
    },
    async (request, reply) => {
      const result = request.actor
        ? await searchInBrand(deps, request.actor, await requireBrandContext(deps, request), bodySearch(request))
        : await searchPublic(deps, namedBrand(request), bodySearch(request));
      return sendOkListTexts(reply, result.records, result.total, { proposed_title: result.proposedTitle });
    },
  );

  app.post(
    '/valerts/count',
    {
      preValidation: lenientPaging,
      config: { auth: 'optional', rateLimit: 'anonymous', deprecated: { date: '2028-01-01', successor: SUCCESSOR } },
      schema: {
        tags: TAGS,
        summary: 'Count listings (deprecated)',
        description: `Deprecated 2028-01-01: use POST ${SUCCESSOR} (info.total). Same body as /valerts; answers only the exact total. ${PUBLIC_DESCRIPTION}`,
        querystring: SearchQuery,
        body: SearchBody,
        response: { 200: CountResponse, ...errorResponses(...AUTHENTICATED_ERRORS, 429) },
        deprecated: true,
      },
    },
    async (request) => {
      const { total, proposedTitle } = request.actor
        ? await countInBrand(deps, request.actor, await requireBrandContext(deps, request), bodySearch(request))
        : await countPublic(deps, namedBrand(request), bodySearch(request));
      return { code: 'OK' as const, data: { total }, info: { count: total, total, proposed_title: proposedTitle } };
    },
  );

  app.get(
    '/listings/search',
    {
      preValidation: lenientPaging,
      config: { deprecated: { date: '2026-01-01', successor: SUCCESSOR } },
      schema: {
        tags: TAGS,
        summary: 'Search listings by text or MLS number (deprecated)',
        description: `Deprecated 2026-01-01: use POST ${SUCCESSOR}. \`q\` = web-search text, \`mls_number\` = exact; one of them is required. \`status[]\` filters statuses.`,
        querystring: LegacySearchQuery,
        response: responses,
        deprecated: true,
      },
    },
    async (request, reply) => {
      const result = await legacySearch(
        deps,
        actorOf(request),
        request.query,
        listingEmbedsOf(associationsOf(request)),
      );
      return sendOkListTexts(reply, result.records, result.total, { proposed_title: result.proposedTitle });
    },
  );
};
