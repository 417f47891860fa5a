// The public pages for the people at the end of Gable's emails and postcards (decisions §21; docs/public-pages.md).
// HTML, not the JSON API: no token, every answer a page (a bad id or any refused request is the friendly 404, a
// failure a 500 page, never a JSON error body), each with its own Content-Security-Policy and cache policy.
import { Type } from '@sinclair/typebox';
import type { FeatureRoutes } from '../../platform/feature.js';
import { html } from '../../platform/pages/html.js';
import { toAppError } from '../../platform/error-handler.js';
import { alertPagesRoutes } from './alert-pages.routes.js';
import { LISTING_PAGE_PREFIX } from './listing-link.js';
import { showListingPage } from './listing-page.service.js';
import { notFoundPage } from './not-found.view.js';
import { leadFormRoutes } from './lead-form.routes.js';
import { renderPublicPage } from './page-layout.js';
import { sendPage } from './page-reply.js';
import { themeOf } from './theme.js';

/** Listings change (price, status) a few times a day at most: a shared link may be served from a cache a while. */
const CACHE_FOUND = 'public, max-age=300';
/** A missing listing may appear soon (a feed catching up): cached briefly. */
const CACHE_NOT_FOUND = 'public, max-age=60';

export const publicPagesRoutes: FeatureRoutes = async (app, { deps }) => {
  const neutral = () => themeOf(null);
  app.setErrorHandler(async (error, request, reply) => {
    const appError = toAppError(error);
    if (appError.http < 500) {
      // A refused request (a segment too long, a malformed query) reads as a link that leads nowhere.
      request.log.info({ code: appError.code, message: appError.message }, 'public page refused');
      return sendPage(reply, 404, notFoundPage({ theme: neutral(), appName: deps.config.appName }), CACHE_NOT_FOUND);
    }
    request.log.error({ err: error }, 'public page failed');
    const page = renderPublicPage({
      title: `Something went wrong · ${deps.config.appName}`,
      description: 'This page could not be shown.',
      theme: neutral(),
      appName: deps.config.appName,
      body: html`<div class="not-found"><h1>Something went wrong</h1><p>This page could not be shown just now. Please try again in a moment.</p><p class="muted">Reference: ${request.id}</p></div>`,
    });
    return sendPage(reply, 500, page, 'no-store');
  });

  await app.register(leadFormRoutes, { deps });

  app.get(
    `${LISTING_PAGE_PREFIX}:listing`,
    {
      config: { auth: 'none' },
      schema: {
        hide: true,
        params: Type.Object({ listing: Type.String() }),
        querystring: Type.Object({ b: Type.Optional(Type.Unknown()) }),
      },
    },
    async (request, reply) => {
      const { status, page } = await showListingPage(deps, request.params.listing, request.query.b);
      return sendPage(reply, status, page, status === 200 ? CACHE_FOUND : CACHE_NOT_FOUND);
    },
  );

  alertPagesRoutes(app, deps, sendPage);
};
