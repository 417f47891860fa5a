// /brands/:brand/print-campaigns (spec 4.9; docs/print-campaigns.md). Wiring only.
import { actorOf } from '../auth/index.js';
import { associationsOf } from '../../platform/associations.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import {
  BrandParams,
  CampaignBody,
  CampaignParams,
  CampaignQuery,
  ListCampaignsQuery,
  PrintCampaignRecord,
  PrintCampaignStats,
  StatsQuery,
} from './print-campaigns.schemas.js';
import {
  campaignStats,
  createCampaign,
  getCampaign,
  listCampaigns,
  updateCampaign,
} from './print-campaigns.service.js';

const TAGS = ['Print campaigns'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const ACL_NOTE = 'Needs the Marketing ACL on the brand (403). ';
const ASSOCIATIONS_NOTE =
  '`associations[]=print_campaign.template_instance` embeds the instance (with its `file`); add `template_instance.template` for its template.';

export const printCampaignRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'marketing');
  app.get(
    '/brands/:brand/print-campaigns',
    {
      schema: {
        tags: TAGS,
        summary: 'Print campaigns of a brand',
        description: `${ACL_NOTE}\`user\`: made by this user. \`mediums[]\`: of instances of these mediums. \`order\`: +/- created_at or updated_at (default -created_at). ${ASSOCIATIONS_NOTE}`,
        params: BrandParams,
        querystring: ListCampaignsQuery,
        response: { 200: ListEnvelope(PrintCampaignRecord), ...ERRORS },
      },
    },
    async (request) => {
      const { records, total } = await listCampaigns(
        deps,
        actorOf(request),
        request.params.brand,
        request.query,
        associationsOf(request),
      );
      return okList(records, total);
    },
  );

  app.post(
    '/brands/:brand/print-campaigns',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a print campaign from a template instance',
        description: `${ACL_NOTE}The instance must be the brand’s (else 404). ${ASSOCIATIONS_NOTE}`,
        params: BrandParams,
        querystring: CampaignQuery,
        body: CampaignBody,
        response: { 200: Envelope(PrintCampaignRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(await createCampaign(deps, actorOf(request), request.params.brand, request.body, associationsOf(request))),
  );

  app.get(
    '/brands/:brand/print-campaigns/stats',
    {
      schema: {
        tags: TAGS,
        summary: 'Print campaigns per medium',
        description: `${ACL_NOTE}No envelope: \`{type: "print_campaign_stats", <medium>: "<count>"}\`, counts as strings, only mediums with at least one campaign. \`user\`: made by this user.`,
        params: BrandParams,
        querystring: StatsQuery,
        response: { 200: PrintCampaignStats, ...ERRORS },
      },
    },
    async (request) => campaignStats(deps, actorOf(request), request.params.brand, request.query.user),
  );

  app.get(
    '/brands/:brand/print-campaigns/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'A print campaign',
        description: `${ACL_NOTE}A campaign of another brand is 404. ${ASSOCIATIONS_NOTE}`,
        params: CampaignParams,
        querystring: CampaignQuery,
        response: { 200: Envelope(PrintCampaignRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(await getCampaign(deps, actorOf(request), request.params.brand, request.params.id, associationsOf(request))),
  );

  app.put(
    '/brands/:brand/print-campaigns/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Point a print campaign at another template instance',
        description: `${ACL_NOTE}Answers 200 with the campaign (the published 204 is not used). The instance must be the brand’s (else 404). ${ASSOCIATIONS_NOTE}`,
        params: CampaignParams,
        querystring: CampaignQuery,
        body: CampaignBody,
        response: { 200: Envelope(PrintCampaignRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(
        await updateCampaign(
          deps,
          actorOf(request),
          request.params.brand,
          request.params.id,
          request.body,
          associationsOf(request),
        ),
      ),
  );
};
