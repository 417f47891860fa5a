// /deals (decisions §17, docs/deals.md). Wiring only: schemas, the brand context, one service call.
import { Type } from '@sinclair/typebox';
import { actorOf } from '../auth/index.js';
import { associationsOf } from '../../platform/associations.js';
import { requireBrandContext } from '../brands/index.js';
import { lenientPaging } from '../../platform/paging.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import {
  AddRolesBody,
  CreateDealBody,
  DealParams,
  DealQuery,
  DealRecord,
  DealRoleParams,
  FilterDealsBody,
  ListDealsQuery,
  UpdateDealBody,
} from './deals.schemas.js';
import { addRoles, createDeal, deleteDeal, filterDeals, getDeal, removeRole, updateDeal } from './deals.service.js';

const TAGS = ['Deals'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const ACCESS =
  'The caller needs the Deals ACL on the deal’s brand; a deal of a brand you cannot reach that way answers 404.';
const EVENT = (event: string) => `Records a Deals/${event} event for the brand and its ancestors.`;

export const dealRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, { read: 'deals:read', write: 'deals:write' });
  app.post(
    '/deals',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a deal',
        description: `The brand is X-RECHAT-BRAND, else the active brand (Deals ACL there, else 403). \`listing\` fills \`context\` with its address, price and MLS number (a missing listing → 404). \`context\` keys come from the closed catalogue of docs/deals.md. Roles need a name and an email unless their contact (of the same brand) or user supplies them. ${EVENT('Created')}`,
        querystring: DealQuery,
        body: CreateDealBody,
        response: { 200: Envelope(DealRecord), ...ERRORS },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      return ok(await createDeal(deps, actorOf(request), brand, request.body, associationsOf(request)));
    },
  );

  app.post(
    '/deals/filter',
    {
      // A search sent as POST: it reads.
      config: { scope: 'deals:read' },
      preValidation: lenientPaging,
      schema: {
        tags: TAGS,
        summary: 'Filter the deals of a brand and its sub-brands',
        description:
          '`brand` (else X-RECHAT-BRAND, else the active brand; Deals ACL there, else 403). `query`: every word matches a word of the title, address or role names by prefix. ' +
          '`status`: the union of the groups set true (is_active = Active/Coming Soon, is_pending = Pending/Active Contingent/Active Option, is_closed = Closed/Sold/Leased, is_archived = Archived/Withdrawn/Cancelled); none = every status. ' +
          '`$order`: [column, ASC|DESC] over created_at, updated_at, title, status, deal_type, list_price, closing_date (default updated_at DESC). `limit` defaults to 300. `info.total` is exact.',
        querystring: DealQuery,
        body: FilterDealsBody,
        response: { 200: ListEnvelope(DealRecord), ...ERRORS },
      },
    },
    async (request) => {
      const { brand: named, ...body } = request.body;
      const brand = named?.toLowerCase() ?? (await requireBrandContext(deps, request));
      const { records, total } = await filterDeals(deps, actorOf(request), brand, body, associationsOf(request));
      return okList(records, total);
    },
  );

  app.get(
    '/deals',
    {
      config: { deprecated: { date: '2026-01-01', successor: '/deals/filter' } },
      preValidation: lenientPaging,
      schema: {
        tags: TAGS,
        summary: 'The brand’s deals (deprecated)',
        description:
          'Deprecated 2026-01-01: use POST /deals/filter. Deals of X-RECHAT-BRAND (else the active brand) and its sub-brands, newest change first; `limit` defaults to 300.',
        querystring: ListDealsQuery,
        response: { 200: ListEnvelope(DealRecord), ...ERRORS },
        deprecated: true,
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      const { records, total } = await filterDeals(
        deps,
        actorOf(request),
        brand,
        { start: request.query.start, limit: request.query.limit },
        associationsOf(request),
      );
      return okList(records, total);
    },
  );

  app.get(
    '/deals/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'A deal',
        description: `associations[]=deal.brand, deal.listing, deal.created_by embed those records (deal.roles are always embedded). ${ACCESS}`,
        params: DealParams,
        querystring: DealQuery,
        response: { 200: Envelope(DealRecord), ...ERRORS },
      },
    },
    async (request) => ok(await getDeal(deps, actorOf(request), request.params.id, associationsOf(request))),
  );

  app.patch(
    '/deals/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Update a deal',
        description: `Only the fields sent change. \`context\` merges (null removes a key); \`title: null\` derives the title from the address again. A status entering the closed group on a Buying deal sets each Buyer contact’s home_anniversary to context.closing_date. ${ACCESS} ${EVENT('Updated')}`,
        params: DealParams,
        querystring: DealQuery,
        body: UpdateDealBody,
        response: { 200: Envelope(DealRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(await updateDeal(deps, actorOf(request), request.params.id, request.body, associationsOf(request))),
  );

  app.delete(
    '/deals/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a deal (soft)',
        description: `The deal then answers 404 and leaves lists. ${ACCESS} ${EVENT('Deleted')}`,
        params: DealParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...ERRORS },
      },
    },
    async (request, reply) => {
      await deleteDeal(deps, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/deals/:id/roles',
    {
      schema: {
        tags: TAGS,
        summary: 'Add roles to a deal',
        description: `Body \`{roles: [...]}\`; all or nothing. ${ACCESS} ${EVENT('Updated')}`,
        params: DealParams,
        querystring: DealQuery,
        body: AddRolesBody,
        response: { 200: Envelope(DealRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(await addRoles(deps, actorOf(request), request.params.id, request.body.roles, associationsOf(request))),
  );

  app.delete(
    '/deals/:id/roles/:role',
    {
      schema: {
        tags: TAGS,
        summary: 'Remove a role from a deal',
        description: `\`:role\` is a role id, or a role name (every role of that name is removed). No such role → 404. ${ACCESS} ${EVENT('Updated')}`,
        params: DealRoleParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...ERRORS },
      },
    },
    async (request, reply) => {
      await removeRole(deps, actorOf(request), request.params.id, request.params.role);
      return reply.code(204).send(null);
    },
  );
};
