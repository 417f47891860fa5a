// GET /listings/:id and POST /mls/:mls/listings (decisions §5). Wiring only.
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { actorOf } from '../auth/index.js';
import { associationsOf } from '../../platform/associations.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ok } from '../../platform/schemas.js';
import {
  IngestBody,
  IngestResult,
  INGEST_BODY_LIMIT_BYTES,
  ListingParams,
  ListingRecord,
  MAX_INGEST_BATCH,
  MlsParams,
} from './listings.schemas.js';
import { listingEmbedsOf } from './listings.presenter.js';
import { getListing, ingestFromFeed, requireFeedClient } from './listings.service.js';

const TAGS = ['Listings'];

export const listingRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, { read: 'listings:read', write: 'listings:write' });
  app.get(
    '/listings/:id',
    {
      config: { auth: 'client' },
      schema: {
        tags: TAGS,
        summary: 'A listing record',
        description:
          'Any access token may read listings (MLS data, not brand data). A deleted or unknown listing answers 404. The record embeds ' +
          '`list_agent` and `selling_agent`; `associations[]=listing.mls_info` adds the MLS name, disclaimer and logo.',
        params: ListingParams,
        response: { 200: Envelope(ListingRecord), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => ok(await getListing(deps, request.params.id, listingEmbedsOf(associationsOf(request)))),
  );

  app.post(
    '/mls/:mls/listings',
    {
      config: { auth: 'client', textCheck: 'per-record' },
      // 1,000 full records weigh ~1.5 MB: this route alone reads up to 8 MiB. Who may send is checked before the
      // body is read (onRequest), so only the platform's own feed loaders get the larger limit.
      bodyLimit: INGEST_BODY_LIMIT_BYTES,
      onRequest: async (request) => requireFeedClient(actorOf(request)),
      schema: {
        tags: TAGS,
        summary: 'Ingest listings of an MLS (batch upsert)',
        description:
          `First-party client-credentials token only. Body: an array of at most ${MAX_INGEST_BATCH} listing records, upserted by ` +
          '(mls, mls_number). Each record is validated on its own: valid ones are written in one transaction, invalid ones ' +
          'are reported in `failed` by their index. Writes record listing events (BecameAvailable, PriceDropped, StatusChanged). See docs/listings.md.',
        params: MlsParams,
        body: IngestBody,
        response: { 200: Envelope(IngestResult), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => ok(await ingestFromFeed(deps, actorOf(request), request.params.mls, request.body)),
  );
};
