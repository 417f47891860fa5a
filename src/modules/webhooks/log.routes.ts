// The delivery log and the actions on a webhook (docs/webhooks.md). Wiring only.
import { actorOf } from '../auth/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { DeliveryLogQuery, DeliveryParams, DeliveryRecord } from './log.schemas.js';
import { enableWebhook, listDeliveries, pingWebhook, retryDelivery, rotateWebhookKey } from './log.service.js';
import { CreateWebhookResponse, WebhookParams, WebhookRecord } from './webhooks.schemas.js';

const TAGS = ['Webhooks'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const ACCESS = 'Admin ACL on the brand (else 403); another brand’s webhook or delivery answers 404.';

export const webhookLogRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'webhooks');
  app.get(
    '/brands/:id/webhooks/:wid/deliveries',
    {
      schema: {
        tags: TAGS,
        summary: 'Delivery log of a webhook',
        description: `Newest first, each with its attempts (time, HTTP status, duration, error, first 1 KiB of the answer); attempts are kept 30 days. ${ACCESS}`,
        params: WebhookParams,
        querystring: DeliveryLogQuery,
        response: { 200: ListEnvelope(DeliveryRecord), ...ERRORS },
      },
    },
    async (request) => {
      const { records, total } = await listDeliveries(
        deps,
        actorOf(request),
        request.params.id,
        request.params.wid,
        request.query,
      );
      return okList(records, total);
    },
  );

  app.post(
    '/brands/:id/webhooks/:wid/deliveries/:did/retry',
    {
      schema: {
        tags: TAGS,
        summary: 'Send a delivery again now',
        description: `A new attempt now, with the same body and webhook-id; also for a delivered or failed one. A disabled webhook answers 409. ${ACCESS}`,
        params: DeliveryParams,
        response: { 200: Envelope(DeliveryRecord), ...errorResponses(...AUTHENTICATED_ERRORS, 409) },
      },
    },
    async (request) =>
      ok(await retryDelivery(deps, actorOf(request), request.params.id, request.params.wid, request.params.did)),
  );

  app.post(
    '/brands/:id/webhooks/:wid/enable',
    {
      schema: {
        tags: TAGS,
        summary: 'Enable a disabled webhook',
        description: `Clears disabled_at (after a 410 answer or 5 days of failures); new events reach it again. ${ACCESS}`,
        params: WebhookParams,
        response: { 200: Envelope(WebhookRecord), ...ERRORS },
      },
    },
    async (request) => ok(await enableWebhook(deps, actorOf(request), request.params.id, request.params.wid)),
  );

  app.post(
    '/brands/:id/webhooks/:wid/test',
    {
      schema: {
        tags: TAGS,
        summary: 'Send a signed ping',
        description: `Delivers \`{topic, event: "ping", timestamp, payload: {webhook}}\` now, signed and logged like any delivery. A disabled webhook answers 409. ${ACCESS}`,
        params: WebhookParams,
        response: { 200: Envelope(DeliveryRecord), ...errorResponses(...AUTHENTICATED_ERRORS, 409) },
      },
    },
    async (request) => ok(await pingWebhook(deps, actorOf(request), request.params.id, request.params.wid)),
  );

  app.post(
    '/brands/:id/webhooks/:wid/rotate',
    {
      schema: {
        tags: TAGS,
        summary: 'Rotate the signing key',
        description: `Returns the new key once (\`info.key\`, \`info.secret\`). For 24 hours deliveries carry both signatures in webhook-signature (space-separated); X-RECHAT-SIGNATURE uses the new key. ${ACCESS}`,
        params: WebhookParams,
        response: { 200: CreateWebhookResponse, ...ERRORS },
      },
    },
    async (request) => {
      const rotated = await rotateWebhookKey(deps, actorOf(request), request.params.id, request.params.wid);
      return { code: 'OK' as const, data: rotated.record, info: { key: rotated.key, secret: rotated.secret } };
    },
  );
};
