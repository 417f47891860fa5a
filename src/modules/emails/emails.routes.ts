// /emails and /brands/:brand/emails (spec 2.6, decisions §7, §15; docs/emails.md). Wiring only.
import { Type } from '@sinclair/typebox';
import { actorOf } from '../auth/index.js';
import { requireBrandContext } from '../brands/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import {
  BrandParams,
  CampaignParams,
  CreateCampaignBody,
  EmailCampaignRecord,
  ListCampaignsQuery,
  UpdateCampaignBody,
} from './emails.schemas.js';
import { createCampaign, deleteCampaign, getCampaign, listCampaigns, updateCampaign } from './emails.service.js';

const TAGS = ['Email campaigns'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
/** html may be 2 MiB (400 beyond, naming the field); the body around it a little more. */
const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

export const emailRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'marketing');
  app.post(
    '/emails',
    {
      bodyLimit: BODY_LIMIT_BYTES,
      schema: {
        tags: TAGS,
        summary: 'Create an email campaign',
        description:
          'Sent at `due_at` (null or past = now) to `to`/`cc`/`bcc`, resolved at send time. Another brand’s contact, tag or brand → 404; CR/LF in `subject` or `headers`, html over 2 MiB, no recipient → 400, and nothing is queued. An `individual` campaign over the sender’s monthly `email_quota` (recipients per brand per calendar month of due_at, sender’s time zone) → 429 with Retry-After. The brand is X-RECHAT-BRAND, else the active brand; Marketing ACL needed (else 403).',
        body: CreateCampaignBody,
        response: { 200: Envelope(EmailCampaignRecord), ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415, 429) },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      return ok(await createCampaign(deps, actorOf(request), brand, request.body));
    },
  );

  app.get(
    '/emails/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'An email campaign, with its counters',
        description: 'A campaign of a brand you cannot reach with Marketing answers 404.',
        params: CampaignParams,
        response: { 200: Envelope(EmailCampaignRecord), ...ERRORS },
      },
    },
    async (request) => ok(await getCampaign(deps, actorOf(request), request.params.id)),
  );

  app.get(
    '/brands/:brand/emails',
    {
      schema: {
        tags: TAGS,
        summary: 'Email campaigns of a brand',
        description:
          'Newest first, paged with start/limit; `info.total` is exact. Marketing ACL on the brand (else 403).',
        params: BrandParams,
        querystring: ListCampaignsQuery,
        response: { 200: ListEnvelope(EmailCampaignRecord), ...ERRORS },
      },
    },
    async (request) => {
      const { records, total } = await listCampaigns(deps, actorOf(request), request.params.brand, request.query);
      return okList(records, total);
    },
  );

  app.patch(
    '/emails/:id',
    {
      bodyLimit: BODY_LIMIT_BYTES,
      schema: {
        tags: TAGS,
        summary: 'Change an unsent email campaign',
        description: 'Only the fields sent change. A new `due_at` reschedules it. 409 once the campaign has been sent.',
        params: CampaignParams,
        body: UpdateCampaignBody,
        response: {
          200: Envelope(EmailCampaignRecord),
          ...errorResponses(...AUTHENTICATED_ERRORS, 409, 413, 415, 429),
        },
      },
    },
    async (request) => ok(await updateCampaign(deps, actorOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/emails/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete an unsent email campaign',
        description: 'It will not be sent, and answers 404 from then on. 409 once the campaign has been sent.',
        params: CampaignParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(...AUTHENTICATED_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      await deleteCampaign(deps, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
