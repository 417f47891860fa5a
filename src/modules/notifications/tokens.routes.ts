// Device-token registration (spec §4.8, decisions §10, §13; docs/notifications.md). Wiring only.
import { Type } from '@sinclair/typebox';
import { MAIN_PUSH_APP } from '../../config.js';
import { userIdOf } from '../auth/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ok } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { UserRecord } from '../users/users.schemas.js';
import { AppTokenParams, RegisterTokenBody, TOKEN_REF_LIMITS, TokenParams, VapidKeyQuery } from './tokens.schemas.js';
import { registerToken, unregisterToken, vapidPublicKey } from './tokens.service.js';

const TAGS = ['Notifications'];
const RESPONSES = { 200: Envelope(UserRecord), ...errorResponses(...AUTHENTICATED_ERRORS) };
const SUCCESSOR = '/notifications/tokens/:app/:id';
/** The spec publishes this deprecation without a date; this is ours (docs/notifications.md). */
const DEPRECATED_ON = '2026-01-01';

const VapidPublicKey = Type.Object({
  type: Type.Literal('vapid_public_key'),
  public_key: Type.String({
    description:
      'The VAPID public key (base64url, uncompressed P-256): `applicationServerKey` of pushManager.subscribe',
  }),
});

export const tokenRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'account');
  app.get(
    '/notifications/vapid-public-key',
    {
      schema: {
        tags: TAGS,
        summary: 'The Web Push (VAPID) public key',
        description:
          'A browser app subscribes with this key, then registers the subscription JSON as a token (`provider` `webpush`) with the same `app`. ' +
          'Each app may have its own key; `app` defaults to the main app `rechat`. 400 when `app` is not a configured app; 404 when Web Push is not configured for it.',
        querystring: VapidKeyQuery,
        response: { 200: Envelope(VapidPublicKey), ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) =>
      ok({ type: 'vapid_public_key' as const, public_key: vapidPublicKey(deps, request.query.app ?? MAIN_PUSH_APP) }),
  );

  // Both paths are in use by existing clients (decisions §10): one handler, two route table entries.
  for (const url of ['/notifications/tokens', '/notification/tokens']) {
    app.post(
      url,
      {
        schema: {
          tags: TAGS,
          summary: 'Register a device for push',
          description:
            'Answers your user record. A token is unique per (app, channel): registering one that another user had moves it to you. ' +
            '`app` must be a configured app key (400 names the known ones); `provider` is inferred when absent; a channel its provider could not accept is a 400. ' +
            (url === '/notification/tokens'
              ? 'Same as POST /notifications/tokens.'
              : 'Also at POST /notification/tokens.'),
          body: RegisterTokenBody,
          response: RESPONSES,
        },
      },
      async (request) => ok(await registerToken(deps, userIdOf(request), request.body)),
    );
  }

  app.delete(
    '/notifications/tokens/:app/:id',
    {
      config: { pathParamLimits: TOKEN_REF_LIMITS },
      schema: {
        tags: TAGS,
        summary: 'Unregister a device',
        description:
          '`id` is the device_id given at registration, or the channel itself. Answers your user record; a device that is not yours answers 404.',
        params: AppTokenParams,
        response: RESPONSES,
      },
    },
    async (request) => ok(await unregisterToken(deps, userIdOf(request), request.params.app, request.params.id)),
  );

  app.delete(
    '/notifications/tokens/:id',
    {
      config: { deprecated: { date: DEPRECATED_ON, successor: SUCCESSOR }, pathParamLimits: TOKEN_REF_LIMITS },
      schema: {
        tags: TAGS,
        summary: 'Unregister a device in every app (deprecated)',
        description: `Deprecated: use DELETE ${SUCCESSOR}. Answers with \`Deprecation\` and \`Link: <${SUCCESSOR}>; rel="successor-version"\`. Removes the device from every app.`,
        params: TokenParams,
        response: RESPONSES,
        deprecated: true,
      },
    },
    async (request) => ok(await unregisterToken(deps, userIdOf(request), null, request.params.id)),
  );
};
