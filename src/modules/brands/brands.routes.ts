// Brand profile routes for existing clients (decisions §19). Wiring only.
import { actorOf } from '../auth/index.js';
import { associationsOf } from '../../platform/associations.js';
import { AUTHENTICATED_ERRORS, Envelope, ListEnvelope, errorResponses, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { BrandParams, BrandQuery, BrandRecord, PaletteBody, RosterQuery, RosterRow } from './brands.schemas.js';
import { brandExpansion, getBrandProfile, listChildren, listRoster, replacePalette } from './profile.service.js';

const TAGS = ['Brands'];
const ASSOCIATIONS =
  '`associations[]=brand.parent` nests the parent record (recursively up the chain), `brand.parents` adds ancestor ids, `brand.settings` the marketing palette.';

export const brandRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, { read: 'brands:read', write: 'brands:admin' });
  app.get(
    '/brands/:brand',
    {
      config: { auth: 'none', rateLimit: 'public' },
      schema: {
        tags: TAGS,
        summary: "A brand's public profile",
        description: `No token needed (existing clients call it so); rate-limited per IP. Name, type, parent and, when associated, the marketing palette — never members or other settings. ${ASSOCIATIONS}`,
        params: BrandParams,
        querystring: BrandQuery,
        response: { 200: Envelope(BrandRecord), ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => ok(await getBrandProfile(deps, request.params.brand, brandExpansion(associationsOf(request)))),
  );

  app.get(
    '/brands/:brand/children',
    {
      schema: {
        tags: TAGS,
        summary: 'The sub-brands of a brand',
        description: `Live children (offices of a region, teams of an office), by name. Members of the brand or an ancestor. ${ASSOCIATIONS}`,
        params: BrandParams,
        querystring: BrandQuery,
        response: { 200: ListEnvelope(BrandRecord), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const children = await listChildren(
        deps,
        actorOf(request),
        request.params.brand,
        brandExpansion(associationsOf(request)),
      );
      return okList(children, children.length);
    },
  );

  app.get(
    '/brands/:brand/users',
    {
      schema: {
        tags: TAGS,
        summary: 'The roster: members of a brand and its sub-brands',
        description:
          'Each live user with a membership in the brand or any brand below it, once, by name: the user record (no account-security fields), ' +
          `\`brands\` (their brands in that subtree) and the same record under \`user\`. Members of the brand or an ancestor. ${ASSOCIATIONS}`,
        params: BrandParams,
        querystring: RosterQuery,
        response: { 200: ListEnvelope(RosterRow), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => {
      const { rows, total } = await listRoster(
        deps,
        actorOf(request),
        request.params.brand,
        brandExpansion(associationsOf(request)),
        { start: request.query.start, limit: request.query.limit },
      );
      return okList(rows, total);
    },
  );

  app.put(
    '/brands/:brand/settings/marketing_palette',
    {
      schema: {
        tags: TAGS,
        summary: "Replace a brand's own marketing palette",
        description:
          'Admin. The body is the whole palette the brand sets itself (keys it leaves out are inherited from its ancestors). ' +
          'Colours (`*-color`) are hex, logos and `*-url` keys are http(s) URLs; a bad key answers 400 naming it.',
        params: BrandParams,
        body: PaletteBody,
        response: { 200: Envelope(BrandRecord), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => ok(await replacePalette(deps, actorOf(request), request.params.brand, request.body)),
  );
};
