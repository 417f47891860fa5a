// GET /notifications/stream: the caller's live notifications as Server-Sent Events (docs/notifications.md).
import { Type } from '@sinclair/typebox';
import { errors } from '../../errors.js';
import { userIdOf } from '../auth/index.js';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { NotificationStreamHub } from './notifications.stream.js';

const LAST_EVENT_ID = /^[0-9]{1,15}$/;

export const streamRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'account');
  const hub = new NotificationStreamHub(deps);
  // Streams end before the server stops accepting: an open stream would otherwise hold its close forever.
  app.addHook('preClose', async () => hub.endStreams());
  app.addHook('onClose', async () => hub.close());

  app.get(
    '/notifications/stream',
    {
      schema: {
        tags: ['Notifications'],
        summary: 'Your notifications, live (Server-Sent Events)',
        description:
          'A `text/event-stream` that stays open. Events: `notification` (id = your feed position, data = the notification record) for each new one, ' +
          'and `unseen` (data `{"new": n}`) at the start and whenever your unseen count changes. Comment lines are heartbeats. ' +
          'Send `Last-Event-ID` (the last id you received) to get what you missed first (up to 200).',
        response: {
          200: { description: 'The event stream', content: { 'text/event-stream': { schema: Type.String() } } },
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const user = userIdOf(request);
      const header = request.headers['last-event-id'];
      if (header !== undefined && (typeof header !== 'string' || !LAST_EVENT_ID.test(header.trim()))) {
        throw errors.invalidField('Last-Event-ID', 'must be the id of an event of this stream (a decimal integer)');
      }
      const stream = await hub.open(user, header === undefined ? null : Number(header.trim()));
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no');
      // A stream payload is piped as it is (the 200 schema only documents it): the type provider expects the string.
      return reply.send(stream as unknown as string);
    },
  );
};
