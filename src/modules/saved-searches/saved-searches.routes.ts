// /brands/:brand/saved-searches (spec §4.4, decisions §6; docs/saved-searches.md). Wiring only.
import { Type } from '@sinclair/typebox';
import { actorOf } from '../auth/index.js';
import { associationsOf } from '../../platform/associations.js';
import { lenientPaging } from '../../platform/paging.js';
import { FORM_OR_JSON_BODY } from '../../platform/body-types.js';
import { html, layout } from '../../platform/pages/html.js';
import { checkUnsubscribe, unsubscribe } from './delivery.unsubscribe.js';
import {
  AUTHENTICATED_ERRORS,
  Envelope,
  ListEnvelope,
  errorResponses,
  ok,
  okList,
  PagingQuery,
  sendOkListTexts,
  Uuid,
} from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { SearchResultSchema } from '../listings/index.js';
import { LegacyOrderBy, SearchInfo } from '../listings/search/search.schemas.js';
import {
  LinkContactsBody,
  ListSavedSearchesQuery,
  SavedSearchContactParams,
  SavedSearchInput,
  SavedSearchParams,
  SavedSearchRecord,
} from './saved-searches.schemas.js';
import {
  changeSavedSearch,
  createSavedSearch,
  deleteSavedSearch,
  getSavedSearch,
  linkContacts,
  listSavedSearches,
  runSavedSearch,
  unlinkContact,
} from './saved-searches.service.js';

const TAGS = ['Saved searches'];
const UnsubscribeQuery = Type.Object({
  search: Uuid,
  contact: Uuid,
  token: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'HMAC of the link' }),
});
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const BrandOnly = Type.Object({ brand: Uuid });
const ACCESS = 'The caller needs the CRM ACL on the brand (403 otherwise); another brand’s search is 404.';
const RULES =
  'Criteria as listing search takes them (docs/listing-search.md) with the same checks: an anchor (points, boundaries, brands, ' +
  'agents or offices; spec §7 message), closed rings, min ≤ max. `contacts` (uuid[]) are alerted with the flat schedule ' +
  '(`frequency` Instant | Never | Daily | Weekly | Monthly, exact case; `send_time` with Daily/Weekly/Monthly, `send_weekday` with Weekly, ' +
  '`send_monthday` with Monthly), in the owning user’s time zone.';
const RunQuery = Type.Object({
  ...PagingQuery,
  order_by: Type.Optional(LegacyOrderBy),
});

export const savedSearchRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'marketing');
  app.get(
    '/brands/:brand/saved-searches',
    {
      schema: {
        tags: TAGS,
        summary: 'Saved searches of the brand',
        description: `Newest first; \`info.total\` is exact. ${ACCESS}`,
        params: BrandOnly,
        querystring: ListSavedSearchesQuery,
        response: { 200: ListEnvelope(SavedSearchRecord), ...ERRORS },
      },
    },
    async (request) => {
      const { records, total } = await listSavedSearches(
        deps,
        actorOf(request),
        request.params.brand,
        request.query,
        associationsOf(request),
      );
      return okList(records, total);
    },
  );

  app.post(
    '/brands/:brand/saved-searches',
    {
      schema: {
        tags: TAGS,
        summary: 'Save a search',
        description: `${RULES} ${ACCESS}`,
        params: BrandOnly,
        body: SavedSearchInput,
        response: { 200: Envelope(SavedSearchRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(await createSavedSearch(deps, actorOf(request), request.params.brand, request.body, associationsOf(request))),
  );

  app.get(
    '/brands/:brand/saved-searches/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'A saved search',
        description: ACCESS,
        params: SavedSearchParams,
        response: { 200: Envelope(SavedSearchRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(
        await getSavedSearch(deps, actorOf(request), request.params.brand, request.params.id, associationsOf(request)),
      ),
  );

  app.patch(
    '/brands/:brand/saved-searches/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Change a saved search (merge)',
        description: `Fields sent replace the stored ones (null clears); the result is checked like a new search. A schedule sent applies to every linked contact; \`contacts\`, when sent, becomes the set of linked contacts. ${RULES} ${ACCESS}`,
        params: SavedSearchParams,
        body: SavedSearchInput,
        response: { 200: Envelope(SavedSearchRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(
        await changeSavedSearch(
          deps,
          actorOf(request),
          request.params.brand,
          request.params.id,
          request.body,
          'merge',
          associationsOf(request),
        ),
      ),
  );

  app.put(
    '/brands/:brand/saved-searches/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Replace a saved search',
        description: `The criteria, title and schedule become the body's (what it leaves out is cleared); linked contacts stay unless \`contacts\` is sent. ${RULES} ${ACCESS}`,
        params: SavedSearchParams,
        body: SavedSearchInput,
        response: { 200: Envelope(SavedSearchRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(
        await changeSavedSearch(
          deps,
          actorOf(request),
          request.params.brand,
          request.params.id,
          request.body,
          'replace',
          associationsOf(request),
        ),
      ),
  );

  app.delete(
    '/brands/:brand/saved-searches/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a saved search (soft)',
        description: `Its alerts stop. ${ACCESS}`,
        params: SavedSearchParams,
        response: { 204: Type.Null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      await deleteSavedSearch(deps, actorOf(request), request.params.brand, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/brands/:brand/saved-searches/:id/listings',
    {
      preValidation: lenientPaging,
      schema: {
        tags: TAGS,
        summary: 'Run a saved search',
        description: `The listings it finds now, with the search engine's paging (\`start\`, \`limit\` default 50, max 1000) and legacy \`order_by[]\` sort. ${ACCESS}`,
        params: SavedSearchParams,
        querystring: RunQuery,
        response: { 200: ListEnvelope(SearchResultSchema, SearchInfo), ...ERRORS },
      },
    },
    async (request, reply) => {
      const result = await runSavedSearch(
        deps,
        actorOf(request),
        request.params.brand,
        request.params.id,
        request.query,
      );
      return sendOkListTexts(reply, result.records, result.total, { proposed_title: result.proposedTitle });
    },
  );

  app.post(
    '/brands/:brand/saved-searches/:id/contacts',
    {
      schema: {
        tags: TAGS,
        summary: 'Link contacts to a saved search',
        description: `Each contact is alerted with the body's schedule (\`frequency\` and its fields), or the search's own schedule when the body names no frequency. A contact already linked gets the new schedule. Contacts must be reachable (404). ${ACCESS}`,
        params: SavedSearchParams,
        body: LinkContactsBody,
        response: { 200: Envelope(SavedSearchRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(
        await linkContacts(
          deps,
          actorOf(request),
          request.params.brand,
          request.params.id,
          request.body,
          associationsOf(request),
        ),
      ),
  );

  app.delete(
    '/brands/:brand/saved-searches/:id/contacts/:contact',
    {
      schema: {
        tags: TAGS,
        summary: 'Unlink a contact from a saved search',
        description: `404 when the contact is not linked. ${ACCESS}`,
        params: SavedSearchContactParams,
        response: { 204: Type.Null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      await unlinkContact(deps, actorOf(request), request.params.brand, request.params.id, request.params.contact);
      return reply.code(204).send(null);
    },
  );

  // One-click unsubscribe (RFC 8058) from an alert email: no token, the signed link is the credential.
  app.get(
    '/saved-searches/unsubscribe',
    {
      config: { auth: 'none' },
      schema: {
        tags: TAGS,
        summary: 'Unsubscribe page of an alert email',
        description:
          'Shows a button that unsubscribes (a GET never changes anything: mail scanners follow links). 400 when the link was tampered with.',
        querystring: UnsubscribeQuery,
        response: { 200: Type.String({ description: 'HTML page' }), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const { title } = await checkUnsubscribe(deps, request.query);
      const action = `/saved-searches/unsubscribe?${new URLSearchParams(request.query).toString()}`;
      const body = html`<h1>Unsubscribe</h1><p>Stop the emails of “${title}”?</p>
        <form method="post" action="${action}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`;
      return reply
        .type('text/html; charset=utf-8')
        .send(layout({ title: 'Unsubscribe', brand: { name: deps.config.appName, poweredBy: null }, body }));
    },
  );

  app.post(
    '/saved-searches/unsubscribe',
    {
      config: { auth: 'none' },
      schema: {
        tags: TAGS,
        summary: 'Unsubscribe from a saved search’s alerts (one click)',
        description:
          'RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` to the List-Unsubscribe URL. Sets that contact link’s frequency to Never; idempotent. 400 when the link was tampered with (nothing changed).',
        // The body (`List-Unsubscribe=One-Click`, a form) carries nothing the link does not: it is not read.
        consumes: FORM_OR_JSON_BODY,
        querystring: UnsubscribeQuery,
        response: {
          200: Envelope(Type.Object({ frequency: Type.Literal('Never'), title: Type.String() })),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request) => {
      const { title } = await unsubscribe(deps, request.query);
      return ok({ frequency: 'Never' as const, title });
    },
  );
};
