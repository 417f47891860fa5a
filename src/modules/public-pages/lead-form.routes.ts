// POST /l/:listing/ask and GET /l/:listing/ask/thanks (docs/public-pages.md "Ask about this home"). A plugin of its
// own so that its refusals have pages of their own: a post too large (413), too many posts (429, Retry-After), a body
// that is not a form (415) — each an HTML page, none writing anything. Failures (5xx) go on to the public pages' 500.
import { Type } from '@sinclair/typebox';
import type { FeatureRoutes } from '../../platform/feature.js';
import { FORM_BODY } from '../../platform/body-types.js';
import { toAppError } from '../../platform/error-handler.js';
import { byteSize } from '../../lib/byte-size.js';
import { LISTING_PAGE_PREFIX } from './listing-link.js';
import { askPath, showThanksPage, submitAskForm, thanksPath } from './lead-form.service.js';
import { refusedPostPage } from './lead-form.view.js';
import { notFoundPage } from './not-found.view.js';
import { sendPage } from './page-reply.js';
import { themeOf } from './theme.js';

/** Far above a filled form (a 5,000-character message in any script is under 50 kB encoded). */
export const ASK_BODY_LIMIT_BYTES = 64 * 1024;

const REFUSALS: Partial<Record<number, { heading: string; text: string }>> = {
  413: {
    heading: 'Your message is too long',
    text: `The form can send up to ${byteSize(ASK_BODY_LIMIT_BYTES)}. Shorten your message and send it again.`,
  },
  400: { heading: 'This form could not be sent', text: 'Send your question from the home’s page.' },
  415: { heading: 'This form could not be sent', text: 'Send your question from the home’s page.' },
  429: {
    heading: 'Too many messages',
    text: 'We received many messages from your network in a short time. Please wait a while and try again.',
  },
};

export const leadFormRoutes: FeatureRoutes = async (app, { deps }) => {
  const appName = deps.config.appName;
  app.setErrorHandler(async (error, request, reply) => {
    const appError = toAppError(error, request.routeOptions.bodyLimit);
    if (appError.http >= 500) throw error; // the public pages' 500 page
    request.log.info({ code: appError.code, message: appError.message }, 'lead form refused');
    const listing = (request.params as { listing?: unknown } | undefined)?.listing;
    const refusal = REFUSALS[appError.http];
    const page = refusal
      ? refusedPostPage({
          theme: themeOf(null),
          appName,
          ...refusal,
          listingHref: typeof listing === 'string' ? `${LISTING_PAGE_PREFIX}${encodeURIComponent(listing)}` : null,
        })
      : notFoundPage({ theme: themeOf(null), appName });
    for (const [name, value] of Object.entries(appError.headers ?? {})) reply.header(name, value);
    return sendPage(reply, refusal ? appError.http : 404, page, 'no-store');
  });

  const params = Type.Object({ listing: Type.String() });

  app.post(
    askPath(':listing'),
    {
      config: { auth: 'none' },
      bodyLimit: ASK_BODY_LIMIT_BYTES,
      schema: {
        hide: true,
        consumes: FORM_BODY,
        params,
        // No body schema: every field is read (and checked) by the service, so that a bad one shows the form again.
      },
    },
    async (request, reply) => {
      const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
      const outcome = await submitAskForm(deps, request.ip, request.params.listing, body as Record<string, unknown>);
      if (outcome.kind === 'page') return sendPage(reply, outcome.status, outcome.page, 'no-store');
      if (outcome.trapped) request.log.info({ trap: outcome.trapped }, 'lead form post trapped as a bot');
      // Post/Redirect/Get: reloading the thanks page does not send the question again.
      return reply.code(303).header('cache-control', 'no-store').redirect(outcome.location, 303);
    },
  );

  app.get(
    thanksPath(':listing'),
    {
      config: { auth: 'none' },
      schema: { hide: true, params, querystring: Type.Object({ b: Type.Optional(Type.Unknown()) }) },
    },
    async (request, reply) =>
      sendPage(reply, 200, await showThanksPage(deps, request.params.listing, request.query.b), 'no-store'),
  );
};
