// /brands/:id/webhooks (spec §4.7; decisions §9, §13; docs/webhooks.md). Wiring only.
import { Type } from '@sinclair/typebox';
import { actorOf } from '../auth/index.js';
import { announceDeprecation } from '../../platform/deprecation.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import {
  BrandParams,
  CreateWebhookBody,
  CreateWebhookResponse,
  ListWebhooksQuery,
  WebhookParams,
  WebhookRecord,
} from './webhooks.schemas.js';
import { ACTIVITIES_DEPRECATION, createWebhook, deleteWebhook, getWebhook, listWebhooks } from './webhooks.service.js';

const TAGS = ['Webhooks'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const ACCESS = 'Needs the Admin ACL on the brand (else 403); a webhook of another brand answers 404.';

export const webhookRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'webhooks');
  app.post(
    '/brands/:id/webhooks',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a brand webhook',
        description:
          '`info.key` is the signing key (64 hex characters) and `info.secret` the same key as `whsec_<base64>`: shown only here. ' +
          'The URL must be http(s) without credentials and resolve to a public address (400 naming the reason). ' +
          `Topic \`Activities\` is deprecated (Deprecation header). ${ACCESS}`,
        params: BrandParams,
        body: CreateWebhookBody,
        response: { 200: CreateWebhookResponse, ...ERRORS },
      },
    },
    async (request, reply) => {
      const created = await createWebhook(deps, actorOf(request), request.params.id, request.body);
      if (request.body.topic === 'Activities')
        announceDeprecation(request, reply, deps.metrics, ACTIVITIES_DEPRECATION, 'topic=Activities');
      return { code: 'OK' as const, data: created.record, info: { key: created.key, secret: created.secret } };
    },
  );

  app.get(
    '/brands/:id/webhooks',
    {
      schema: {
        tags: TAGS,
        summary: 'Webhooks of a brand',
        description: `Live webhooks, oldest first; optional \`topic\`. A list with an \`Activities\` webhook carries the Deprecation header. ${ACCESS}`,
        params: BrandParams,
        querystring: ListWebhooksQuery,
        response: { 200: ListEnvelope(WebhookRecord), ...ERRORS },
      },
    },
    async (request, reply) => {
      const { records, total } = await listWebhooks(deps, actorOf(request), request.params.id, request.query);
      if (request.query.topic === 'Activities' || records.some((r) => r.topic === 'Activities')) {
        announceDeprecation(request, reply, deps.metrics, ACTIVITIES_DEPRECATION, 'topic=Activities');
      }
      return okList(records, total);
    },
  );

  app.get(
    '/brands/:id/webhooks/:wid',
    {
      schema: {
        tags: TAGS,
        summary: 'A brand webhook',
        description: `Never shows the key. ${ACCESS}`,
        params: WebhookParams,
        response: { 200: Envelope(WebhookRecord), ...ERRORS },
      },
    },
    async (request, reply) => {
      const record = await getWebhook(deps, actorOf(request), request.params.id, request.params.wid);
      if (record.topic === 'Activities')
        announceDeprecation(request, reply, deps.metrics, ACTIVITIES_DEPRECATION, 'topic=Activities');
      return ok(record);
    },
  );

  app.delete(
    '/brands/:id/webhooks/:wid',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a brand webhook',
        description: `Soft delete: it leaves the list and receives nothing more (deliveries not yet made are dropped). ${ACCESS}`,
        params: WebhookParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...ERRORS },
      },
    },
    async (request, reply) => {
      await deleteWebhook(deps, actorOf(request), request.params.id, request.params.wid);
      return reply.code(204).send(null);
    },
  );
};
