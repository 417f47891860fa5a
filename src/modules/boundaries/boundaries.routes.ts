// GET /boundaries/search and GET /boundaries/:id (spec 4.6). Wiring only.
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { requestedNames } from '../../platform/associations.js';
import { AUTHENTICATED_ERRORS, Envelope, ListEnvelope, errorResponses, ok, okList } from '../../platform/schemas.js';
import { Boundary, BoundaryParams, BoundarySearchQuery } from './boundaries.schemas.js';
import { getBoundary, searchBoundaryCatalogue } from './boundaries.service.js';

export const boundaryRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'listings:read');
  app.get(
    '/boundaries/search',
    {
      schema: {
        tags: ['Boundaries'],
        summary: 'Search boundaries by name or code prefix',
        description:
          'Countries, states, counties and imported places. `q` matches title, aliases and codes by word prefix, ranked by text rank then population. `omit[]=boundary.geometry` leaves geometries out.',
        querystring: BoundarySearchQuery,
        response: { 200: ListEnvelope(Boundary), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const { rows, total } = await searchBoundaryCatalogue(deps, request.query, requestedNames(request.query.omit));
      return okList(rows, total);
    },
  );

  app.get(
    '/boundaries/:id',
    {
      schema: {
        tags: ['Boundaries'],
        summary: 'A boundary with its full GeoJSON geometry and center',
        description: 'Any user token may read the catalogue. An unknown id answers 404.',
        params: BoundaryParams,
        response: { 200: Envelope(Boundary), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => ok(await getBoundary(deps, request.params.id)),
  );
};
