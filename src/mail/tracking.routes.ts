// The public side of sent mail (decisions §15; docs/mail.md): the open pixel, signed click redirects and the signed
// delivery-event feed (the RFC 8058 one-click unsubscribe is a brand-styled page: modules/public-pages). No bearer token: the link's signature (or the feed's
// HMAC) is the credential, and a link that does not verify is refused — never redirected.
import { AppError, errors } from '../errors.js';
import { errorResponses, ok } from '../platform/schemas.js';
import type { FeatureRoutes } from '../platform/feature.js';
import { recordFeedEvents, verifyEventsSignature, type SignatureHeaders } from './events-feed.js';
import { PIXEL_GIF } from './tracking.js';
import { verificationKeys } from '../lib/crypto.js';
import { ClickQuery, FeedBody, FeedResponse, LinkParams } from './tracking.schemas.js';
import { followClick, recordOpen } from './tracking.service.js';

// Tracking links belong to the campaigns whose counters they move.
const TAGS = ['Email campaigns'];

/** The JSON body as it arrived: the feed's signature covers these exact bytes. */
const RAW_BODY = Symbol('rawBody');

export const mailTrackingRoutes: FeatureRoutes = async (app, { deps }) => {
  app.get(
    '/mail/open/:token',
    {
      config: { auth: 'none' },
      schema: {
        tags: TAGS,
        summary: 'Open pixel of a sent message',
        description: 'A 1×1 GIF; counts the message opened once per recipient. A changed token answers 400.',
        security: [],
        params: LinkParams,
        response: {
          200: {
            description: 'A transparent GIF',
            content: { 'image/gif': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      await recordOpen(deps, request.params.token);
      return reply.type('image/gif').header('cache-control', 'no-store, private').send(PIXEL_GIF);
    },
  );

  app.get(
    '/mail/click/:token',
    {
      config: { auth: 'none' },
      schema: {
        tags: TAGS,
        summary: 'Signed redirect of a link in a sent message',
        description:
          '302 to `url` when the token was signed for exactly this message and URL (http/https only); counts the click once per recipient. Anything else is a 400: never an open redirect.',
        security: [],
        params: LinkParams,
        querystring: ClickQuery,
        response: { 302: { description: 'Redirect to the original link' }, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const url = await followClick(deps, request.params.token, request.query.url);
      return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(url, 302);
    },
  );

  // GET and POST /mail/unsubscribe/:token are pages in the brand's style: modules/public-pages/unsubscribe-page.*.

  // The feed verifies an HMAC over the body's exact bytes: in this scope JSON is kept as text, then parsed.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      (request as unknown as Record<symbol, string>)[RAW_BODY] = body as string;
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(errors.badRequest('The body is not valid JSON'), undefined);
      }
    });
    scope.post(
      '/emails/events',
      {
        config: { auth: 'none' },
        schema: {
          tags: ['Email campaigns'],
          summary: 'Delivery, bounce and complaint events from the mail provider',
          description:
            'Provider-neutral and keyed by Message-ID; a forwarder (SES via SNS, Postmark webhooks, …) translates the provider’s payload. ' +
            'Signed like Standard Webhooks: `webhook-id`, `webhook-timestamp` (epoch seconds, ±5 min) and `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` with the key `gable mail events-key` prints. ' +
            'Unsigned, badly signed or stale → 403. Idempotent: a re-sent event changes nothing. Moves the campaign counters `delivered`, `failed` (bounced/failed) and `complained`.',
          security: [],
          body: FeedBody,
          response: { 200: FeedResponse, ...errorResponses(400, 403, 413, 415) },
        },
        preValidation: async (request) => {
          const raw = (request as unknown as Record<symbol, string | undefined>)[RAW_BODY];
          if (raw === undefined) throw new AppError('UnsupportedMediaType', 'Send the events as application/json');
          verifyEventsSignature(
            verificationKeys(deps.config),
            request.headers as SignatureHeaders,
            raw,
            deps.clock.now(),
          );
        },
      },
      async (request) => ok(await recordFeedEvents(deps, (request.body as FeedBody).events)),
    );
  });
};
