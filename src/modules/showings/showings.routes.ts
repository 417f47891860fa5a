// /showings and /brands/:brand/showings (decisions §17, docs/showings.md). Wiring only.
import { actorOf } from '../auth/index.js';
import { requireBrandContext } from '../brands/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import {
  BrandShowingsParams,
  CreateShowingBody,
  ListShowingsQuery,
  ShowingParams,
  ShowingRecord,
  UpdateShowingBody,
} from './showings.schemas.js';
import { createShowing, getShowing, listShowings, updateShowing } from './showings.service.js';

const TAGS = ['Showings'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const ACCESS =
  'The caller needs the CRM ACL on the showing’s brand; a showing of a brand you cannot reach that way answers 404.';

export const showingRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, { read: 'contacts:read', write: 'contacts:write' });
  app.post(
    '/showings',
    {
      schema: {
        tags: TAGS,
        summary: 'Schedule a showing',
        description:
          'The brand is X-RECHAT-BRAND, else the active brand (CRM ACL there, else 403). `listing` must be a stored listing, `contact` a contact of the brand, `agent` (default: the caller) a member of the brand or an ancestor (each else 404). ' +
          'end_time before start_time → 400. A contact gets a ContactScheduledShowing timeline activity. Records a Showings/showing.created event.',
        body: CreateShowingBody,
        response: { 200: Envelope(ShowingRecord), ...ERRORS },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      return ok(await createShowing(deps, actorOf(request), brand, request.body));
    },
  );

  app.get(
    '/showings/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'A showing',
        description: ACCESS,
        params: ShowingParams,
        response: { 200: Envelope(ShowingRecord), ...ERRORS },
      },
    },
    async (request) => ok(await getShowing(deps, actorOf(request), request.params.id)),
  );

  app.patch(
    '/showings/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Update a showing',
        description: `Only the fields sent change; null clears. A newly attached contact gets a ContactScheduledShowing activity; becoming Completed records ContactAttendedShowing on the contact. ${ACCESS} Records a Showings/showing.updated event.`,
        params: ShowingParams,
        body: UpdateShowingBody,
        response: { 200: Envelope(ShowingRecord), ...ERRORS },
      },
    },
    async (request) => ok(await updateShowing(deps, actorOf(request), request.params.id, request.body)),
  );

  app.get(
    '/brands/:brand/showings',
    {
      schema: {
        tags: TAGS,
        summary: 'Showings of a brand',
        description:
          'Ordered by start_time. `from` (inclusive) and `to` (exclusive) bound start_time in epoch seconds; `status[]` any of the statuses. `info.total` is exact. CRM ACL on the brand, else 403.',
        params: BrandShowingsParams,
        querystring: ListShowingsQuery,
        response: { 200: ListEnvelope(ShowingRecord), ...ERRORS },
      },
    },
    async (request) => {
      const { records, total } = await listShowings(
        deps,
        actorOf(request),
        request.params.brand.toLowerCase(),
        request.query,
      );
      return okList(records, total);
    },
  );
};
