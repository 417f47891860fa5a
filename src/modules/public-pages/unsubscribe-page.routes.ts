// The campaign unsubscribe pages (issue 32 item 4; docs/public-pages.md "Unsubscribe pages") on the path that
// List-Unsubscribe has always carried, `/mail/unsubscribe/:token`, so every message already sent keeps working.
// GET asks (never unsubscribes: scanners prefetch links); POST is both the page's button and the RFC 8058 one-click
// a mail client sends, unchanged; `…/everything` is the one click more. Every answer is an HTML page in the style of
// the brand whose mail it was; a refused link is a 4xx page with the error's own status, never a JSON body.
import type { FeatureRoutes } from '../../platform/feature.js';
import { FORM_OR_JSON_BODY } from '../../platform/body-types.js';
import { toAppError } from '../../platform/error-handler.js';
import { errorResponses } from '../../platform/schemas.js';
import { LinkParams, UnsubscribeBody } from '../../mail/tracking.schemas.js';
import { sendPage } from './page-reply.js';
import { themeOf } from './theme.js';
import { confirmUnsubscribe, showUnsubscribeQuestion, unsubscribeFromEverything } from './unsubscribe-page.service.js';
import { linkProblemPage } from './unsubscribe-page.view.js';

const TAGS = ['Email campaigns'];
const htmlPage = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const HTML_PAGE = htmlPage('An HTML page');
/** Refusals are pages too (a person follows these links), not the JSON error body. */
const REFUSED_PAGES = {
  400: htmlPage('A page: the link was changed or is incomplete; nothing changed'),
  404: htmlPage('A page: the message of the link is no longer on file; nothing changed'),
};

/** Personal (the page names the address) and about a state that changes: never cached. */
const NO_STORE = 'no-store';

export const unsubscribePageRoutes: FeatureRoutes = async (app, { deps }) => {
  app.setErrorHandler(async (error, request, reply) => {
    const appError = toAppError(error);
    // A person following the link meets 400 or 404; a body too large or of another type is a client's, answered as
    // the API answers it (JSON) by the app's handler, like any failure.
    if (appError.http !== 400 && appError.http !== 404) throw error;
    request.log.info({ code: appError.code, message: appError.message }, 'unsubscribe link refused');
    // A refused link names no brand we can trust: the neutral style.
    const theme = themeOf(null);
    return sendPage(
      reply,
      appError.http,
      linkProblemPage({ theme, appName: deps.config.appName, status: appError.http }),
      NO_STORE,
    );
  });

  const POST_SCHEMA = {
    security: [],
    // Mail clients send a form (RFC 8058); our own page's buttons too.
    consumes: FORM_OR_JSON_BODY,
    params: LinkParams,
    body: UnsubscribeBody,
    response: { 200: HTML_PAGE, ...REFUSED_PAGES, ...errorResponses(415) },
  };

  app.get(
    '/mail/unsubscribe/:token',
    {
      config: { auth: 'none' },
      schema: {
        tags: TAGS,
        summary: 'Unsubscribe page (the List-Unsubscribe link opened in a browser)',
        description:
          'A page in the style of the brand whose mail it was, asking to unsubscribe the address, with a button that POSTs to the same URL. A GET never unsubscribes (mail scanners follow links). A changed link → a 400 page.',
        security: [],
        params: LinkParams,
        response: { 200: HTML_PAGE, ...REFUSED_PAGES },
      },
    },
    async (request, reply) => sendPage(reply, 200, await showUnsubscribeQuestion(deps, request.params.token), NO_STORE),
  );

  app.post(
    '/mail/unsubscribe/:token',
    {
      config: { auth: 'none' },
      schema: {
        tags: TAGS,
        summary: 'One-click unsubscribe (RFC 8058)',
        description:
          'What a mail client POSTs (`List-Unsubscribe=One-Click`, form-encoded) and what the unsubscribe page’s button sends. The address stops the brand’s marketing mail: its contacts there are marked unsubscribed and later campaigns skip it. Idempotent. Answers a confirmation page offering to unsubscribe from everything from the brand.',
        ...POST_SCHEMA,
      },
    },
    async (request, reply) => sendPage(reply, 200, await confirmUnsubscribe(deps, request.params.token), NO_STORE),
  );

  app.post(
    '/mail/unsubscribe/:token/everything',
    {
      config: { auth: 'none' },
      // A button of the confirmation page, not an API: left out of the OpenAPI document like the other pages.
      schema: { hide: true, ...POST_SCHEMA },
    },
    async (request, reply) =>
      sendPage(reply, 200, await unsubscribeFromEverything(deps, request.params.token), NO_STORE),
  );
};
