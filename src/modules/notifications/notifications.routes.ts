// /notifications: the caller's feed (spec §4.8, decisions §10; docs/notifications.md). Wiring only.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { userIdOf } from '../auth/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import {
  DeleteNotificationsBody,
  FEED_DEFAULT_LIMIT,
  FEED_MAX_LIMIT,
  FeedQuery,
  MAX_DELETE_IDS,
  NotificationParams,
  NotificationRecord,
} from './notifications.schemas.js';
import {
  deleteNotifications,
  feedBearerRead,
  feedJson,
  getNotification,
  markSeen,
  type BearerWithFeed,
} from './notifications.service.js';

const TAGS = ['Notifications'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const NO_CONTENT = { 204: Type.Null({ description: 'Done' }) };

/**
 * `DELETE /notifications` may come without a body (delete all): validate it as `{}`. A JSON `null` is a body, not
 * the absence of one: it is validated as sent, and refused like any other body that is not an object.
 */
async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) request.body = {};
}

export const notificationRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'account');
  app.get(
    '/notifications',
    {
      config: { bearerRead: feedBearerRead(deps) },
      schema: {
        tags: TAGS,
        summary: 'Your notifications, newest first',
        description: `\`start\`/\`limit\` (default ${FEED_DEFAULT_LIMIT}, at most ${FEED_MAX_LIMIT}). \`info.new\` is your unseen count over the whole feed, not the page; \`info.total\` counts the whole feed.`,
        querystring: FeedQuery,
        response: {
          200: ListEnvelope(NotificationRecord, {
            new: Type.Integer({ description: 'Unseen notifications, all pages' }),
          }),
          ...ERRORS,
        },
      },
    },
    // The body comes as JSON text (feed-json.ts), which Fastify sends as it is: the schema above describes it, and
    // its serializer writes the records embedded in it.
    async (request, reply) => {
      const body = await feedJson(
        deps,
        userIdOf(request),
        request.query,
        request.bearerRead as BearerWithFeed | null,
        (value, schema) => reply.serializeInput(value, schema),
      );
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  app.patch(
    '/notifications/seen',
    {
      schema: {
        tags: TAGS,
        summary: 'Mark all your notifications seen',
        description: 'Every unseen notification becomes seen (`info.new` becomes 0); none is acknowledged by this.',
        response: { ...NO_CONTENT, ...ERRORS },
      },
    },
    async (request, reply) => {
      await markSeen(deps, userIdOf(request), null);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/notifications/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'One of your notifications',
        description: 'Another user’s notification, or one you deleted, answers 404.',
        params: NotificationParams,
        response: { 200: Envelope(NotificationRecord), ...ERRORS },
      },
    },
    async (request) => ok(await getNotification(deps, userIdOf(request), request.params.id)),
  );

  app.patch(
    '/notifications/:id/seen',
    {
      schema: {
        tags: TAGS,
        summary: 'Mark one notification seen',
        description: 'Sets `seen_at` and `acked_at` (you acted on this one). Not yours → 404.',
        params: NotificationParams,
        response: { ...NO_CONTENT, ...ERRORS },
      },
    },
    async (request, reply) => {
      await markSeen(deps, userIdOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/notifications/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a notification from your feed',
        description: 'Only from your feed: other recipients keep theirs. Not yours → 404.',
        params: NotificationParams,
        response: { ...NO_CONTENT, ...ERRORS },
      },
    },
    async (request, reply) => {
      await deleteNotifications(deps, userIdOf(request), [request.params.id]);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/notifications',
    {
      preValidation: emptyBodyAsObject,
      schema: {
        tags: TAGS,
        summary: 'Delete notifications from your feed',
        description: `Body \`{notifications: [ids]}\` (up to ${MAX_DELETE_IDS}; all or nothing: 404 if one is not yours), or no body to empty your feed.`,
        body: DeleteNotificationsBody,
        response: { ...NO_CONTENT, ...ERRORS },
      },
    },
    async (request, reply) => {
      await deleteNotifications(deps, userIdOf(request), request.body.notifications ?? null);
      return reply.code(204).send(null);
    },
  );
};
