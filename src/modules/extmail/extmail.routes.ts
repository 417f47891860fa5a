// /users/self/extmail and the provider's callback (spec §4.3; decisions §12; docs/extmail.md). Wiring only.
import { actorOf } from '../auth/index.js';
import { requireBrandContext } from '../brands/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import { messagePage } from '../../platform/pages/pages.js';
import { PAGE_STYLE_HASH } from '../../platform/pages/styles.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { completeLink } from './callback.service.js';
import {
  AssociationsQuery,
  AuthLink,
  CallbackQuery,
  LinkedQuery,
  CreateLinkBody,
  CredentialParams,
  CredentialRecord,
} from './extmail.schemas.js';
import {
  createLink,
  deleteOwnCredential,
  getOwnCredential,
  LINKED_PAGE,
  listOwnCredentials,
} from './extmail.service.js';
import { requestSync } from './sync.service.js';

const TAGS = ['External mail'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const OWNER = 'Only the owner sees a credential: another user’s (or a deleted one) answers 404.';

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': `default-src 'none'; style-src '${PAGE_STYLE_HASH}'; frame-ancestors 'none'; base-uri 'none'`,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

export const extmailRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'account');
  app.post(
    '/users/self/extmail',
    {
      schema: {
        tags: TAGS,
        summary: 'Start linking a Microsoft 365 mailbox',
        description:
          'Answers the identity platform address at which the user signs in and consents; the browser then comes back to ' +
          '`GET /extmail/callback`, which stores the credential for the request’s brand and redirects to `redirect`. Scopes: ' +
          '`Contacts.Read`, `Mail.Read`, `Mail.Send` (anything else is a 400). 412 when the server has no Microsoft app configured.',
        body: CreateLinkBody,
        response: { 200: Envelope(AuthLink), ...errorResponses(...AUTHENTICATED_ERRORS, 412) },
      },
      // Every field is optional: a request without a body asks for the defaults (a JSON `null` is still refused).
      preValidation: async (request) => {
        // The body's static type says object; without a body Fastify leaves it undefined.
        if ((request.body as unknown) === undefined) request.body = {};
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      return ok(await createLink(deps, actorOf(request), brand, request.body));
    },
  );

  app.get(
    '/users/self/extmail',
    {
      schema: {
        tags: TAGS,
        summary: 'Linked mailboxes of the caller',
        description: `Live credentials, oldest first. ${OWNER}`,
        querystring: AssociationsQuery,
        response: { 200: ListEnvelope(CredentialRecord), ...ERRORS },
      },
    },
    async (request) => {
      const records = await listOwnCredentials(deps, actorOf(request));
      return okList(records, records.length);
    },
  );

  app.get(
    '/users/self/extmail/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'A linked mailbox',
        description: OWNER,
        params: CredentialParams,
        querystring: AssociationsQuery,
        response: { 200: Envelope(CredentialRecord), ...ERRORS },
      },
    },
    async (request) => ok(await getOwnCredential(deps, actorOf(request), request.params.id)),
  );

  app.post(
    '/users/self/extmail/:id/sync',
    {
      schema: {
        tags: TAGS,
        summary: 'Sync a linked mailbox now',
        description:
          'Queues a sync (contacts delta into the credential’s brand, mail-folder delta token) and answers the credential with its `jobs` state; ' +
          `a sync already queued or running is not queued twice. 409 when the credential is revoked or was deleted. ${OWNER}`,
        params: CredentialParams,
        response: { 200: Envelope(CredentialRecord), ...errorResponses(...AUTHENTICATED_ERRORS, 409) },
      },
    },
    async (request) => ok(await requestSync(deps, actorOf(request), request.params.id)),
  );

  app.delete(
    '/users/self/extmail/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Unlink a mailbox',
        description: `Soft delete: answers the credential with \`deleted_at\` set; its tokens are erased. ${OWNER}`,
        params: CredentialParams,
        response: { 200: Envelope(CredentialRecord), ...ERRORS },
      },
    },
    async (request) => ok(await deleteOwnCredential(deps, actorOf(request), request.params.id)),
  );

  // A browser page, not the JSON API: hidden from the OpenAPI document like the other web pages (docs/extmail.md).
  app.get(
    LINKED_PAGE,
    { config: { auth: 'none' }, schema: { hide: true, querystring: LinkedQuery } },
    async (request, reply) => {
      const { error, error_description: description } = request.query;
      const page = messagePage({
        brand: { name: deps.config.appName, poweredBy: null },
        title: error ? 'The mailbox was not linked' : 'Mailbox linked',
        message: error
          ? `${description ?? 'The sign-in did not complete'} (${error}).`
          : 'Your Microsoft 365 mailbox is linked: its contacts sync in a few minutes. You can close this window.',
      });
      return reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(page);
    },
  );

  app.get(
    '/extmail/callback',
    { config: { auth: 'none' }, schema: { hide: true, querystring: CallbackQuery } },
    async (request, reply) => {
      const outcome = await completeLink(deps, request.query);
      reply.headers(PAGE_HEADERS);
      if (outcome.kind === 'redirect') return reply.redirect(outcome.location, 302);
      const page = messagePage({
        brand: { name: deps.config.appName, poweredBy: null },
        title: outcome.title,
        message: outcome.message,
      });
      return reply.status(outcome.status).type('text/html; charset=utf-8').send(page);
    },
  );
};
