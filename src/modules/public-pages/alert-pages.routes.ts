// Routes of the contact's alert pages (docs/public-pages.md): GET /a/:token (results), GET and POST
// /a/:token/preferences. Registered inside the public pages' plugin (public-pages.routes.ts), so a refused GET reads
// as its friendly 404 page; a refused POST (too large, not a form) answers its own status with a page saying
// nothing was saved. Personal pages: never cached, never indexed.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { FORM_BODY } from '../../platform/body-types.js';
import { toAppError } from '../../platform/error-handler.js';
import { saveAlertPreferences, showAlertPreferences, showAlertResults } from './alert-pages.service.js';
import { formRefusedPage } from './alert-preferences.view.js';
import { ALERT_PAGE_PREFIX, PREFERENCES_SUFFIX } from './alert-token.js';
import type { RenderedPage } from './page-layout.js';
import { themeOf } from './theme.js';

type App = Parameters<FeatureRoutes>[0];
export type SendPage = (reply: FastifyReply, status: number, page: RenderedPage, cache: string) => FastifyReply;

const PERSONAL = 'private, no-store';
/** A preferences form is a few fields per saved search: far below this even for a contact following hundreds. */
const FORM_LIMIT_BYTES = 64 * 1024;
const Token = Type.String({ maxLength: 200 });

export function alertPagesRoutes(app: App, deps: Deps, sendPage: SendPage): void {
  app.get(
    `${ALERT_PAGE_PREFIX}:token`,
    {
      config: { auth: 'none' },
      schema: {
        hide: true,
        params: Type.Object({ token: Token }),
        querystring: Type.Object({ page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$' })) }),
      },
    },
    async (request, reply) => {
      const { status, page } = await showAlertResults(deps, request.params.token, Number(request.query.page ?? 1));
      return sendPage(reply, status, page, PERSONAL);
    },
  );

  app.get(
    `${ALERT_PAGE_PREFIX}:token${PREFERENCES_SUFFIX}`,
    {
      config: { auth: 'none' },
      schema: {
        hide: true,
        params: Type.Object({ token: Token }),
        querystring: Type.Object({ saved: Type.Optional(Type.String({ maxLength: 8 })) }),
      },
    },
    async (request, reply) => {
      const { status, page } = await showAlertPreferences(deps, request.params.token, request.query.saved === '1');
      return sendPage(reply, status, page, PERSONAL);
    },
  );

  app.post(
    `${ALERT_PAGE_PREFIX}:token${PREFERENCES_SUFFIX}`,
    {
      config: { auth: 'none' },
      bodyLimit: FORM_LIMIT_BYTES,
      schema: {
        hide: true,
        consumes: [...FORM_BODY],
        params: Type.Object({ token: Token }),
        body: Type.Record(Type.String({ maxLength: 100 }), Type.Unknown()),
      },
      errorHandler: (error, request, reply) => {
        const appError = toAppError(error);
        if (appError.http >= 500) throw error;
        request.log.info({ code: appError.code, message: appError.message }, 'alert preferences post refused');
        const page = formRefusedPage({ theme: themeOf(null), appName: deps.config.appName });
        void sendPage(reply, appError.http, page, PERSONAL);
      },
    },
    async (request, reply) => {
      const answer = await saveAlertPreferences(deps, request.params.token, request.body);
      if ('redirect' in answer) return reply.header('cache-control', PERSONAL).redirect(answer.redirect, 303);
      return sendPage(reply, answer.status, answer.page, PERSONAL);
    },
  );
}
