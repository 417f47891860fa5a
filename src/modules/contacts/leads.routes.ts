// Leads (decisions §14; docs/contacts.md): POST /leads, lead channels, and the public capture endpoint.
// Wiring only.
import { Type } from '@sinclair/typebox';
import { actorOf } from '../auth/index.js';
import { requireBrandContext } from '../brands/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { ContactRecord } from './contacts.schemas.js';
import {
  BrandParams,
  ChannelParams,
  ChannelsQuery,
  CreateChannelBody,
  LeadChannelRecord,
  PostLeadBody,
  WebhookLeadBody,
} from './leads.schemas.js';
import { captureFromChannel, createChannel, LEAD_CAPTURE_LIMITS, listChannels, postLead } from './leads.service.js';

const TAGS = ['Leads'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const DEDUPE =
  'The lead joins the brand’s live contact with the same email, else the same phone number (E.164), else a new contact; its tags are added and a ContactLeadCaptured activity is recorded with the lead’s listing.';

export const leadRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, { read: 'contacts:read', write: 'contacts:write' });
  app.post(
    '/leads',
    {
      schema: {
        tags: TAGS,
        summary: 'Capture a lead (WordPress plugin)',
        description: `Body \`{metadata: {lead_channel}, lead: {...}}\`. The brand is X-RECHAT-BRAND, else the active brand (CRM needed). ${DEDUPE} Answers the contact.`,
        body: PostLeadBody,
        response: { 200: Envelope(ContactRecord), ...ERRORS },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      return ok(await postLead(deps, actorOf(request), brand, request.body));
    },
  );

  app.post(
    '/brands/:brand/leads/channels',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a lead channel',
        description:
          'Its id is the only credential of POST /leads/channels/:channel/webhook: share it only with the site that captures leads. CRM needed.',
        params: BrandParams,
        body: CreateChannelBody,
        response: { 200: Envelope(LeadChannelRecord), ...ERRORS },
      },
    },
    async (request) => ok(await createChannel(deps, actorOf(request), request.params.brand, request.body)),
  );

  app.get(
    '/brands/:brand/leads/channels',
    {
      schema: {
        tags: TAGS,
        summary: 'Lead channels of a brand',
        description:
          "The brand's lead channels, newest first, paged with start/limit and an exact total. CRM access to the brand.",
        params: BrandParams,
        querystring: ChannelsQuery,
        response: { 200: ListEnvelope(LeadChannelRecord), ...ERRORS },
      },
    },
    async (request) => {
      const { records, total } = await listChannels(deps, actorOf(request), request.params.brand, request.query);
      return okList(records, total);
    },
  );

  app.post(
    '/leads/channels/:channel/webhook',
    {
      config: { auth: 'none' },
      schema: {
        tags: TAGS,
        summary: 'Capture a lead through a channel (no token)',
        description:
          `The flat lead of the lead-capture API: first_name, last_name, email, phone_number, tag[], lead_source, note, referer_url, listing{…}, assignees[]. ${DEDUPE} ` +
          `At most ${LEAD_CAPTURE_LIMITS.perIp.maxFailuresPerHour} captures per hour per IP and ${LEAD_CAPTURE_LIMITS.perChannel.maxFailuresPerHour} per channel (429 with Retry-After).`,
        params: ChannelParams,
        body: WebhookLeadBody,
        response: { 204: Type.Null({ description: 'Captured' }), ...errorResponses(400, 404, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      await captureFromChannel(deps, request.ip, request.params.channel, request.body);
      return reply.code(204).send(null);
    },
  );
};
