// /contacts (decisions §7, §14; docs/contacts.md). Wiring only: schemas, the brand context, one service call.
import { Type } from '@sinclair/typebox';
import { actorOf } from '../auth/index.js';
import { associationsOf } from '../../platform/associations.js';
import { requireBrandContext } from '../brands/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import {
  ContactInput,
  ContactParams,
  ContactQuery,
  ContactRecord,
  ContactTag,
  CreateContactsBody,
  CreateContactsResponse,
  DeleteContactsBody,
  ListContactsQuery,
  MAX_CONTACTS_PER_REQUEST,
} from './contacts.schemas.js';
import {
  contactBearerRead,
  createContacts,
  deleteContacts,
  getContact,
  listContacts,
  listTags,
  updateContact,
} from './contacts.service.js';
import type { BearerWithContact } from './contacts.repository.js';

const TAGS = ['Contacts'];

const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const BRAND_NOTE = 'The brand is X-RECHAT-BRAND, else the active brand; the caller needs the CRM ACL there (else 403).';
/** 1,000 full contacts are larger than the default 1 MiB. */
const BULK_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export const contactRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, { read: 'contacts:read', write: 'contacts:write' });
  app.post(
    '/contacts',
    {
      bodyLimit: BULK_BODY_LIMIT_BYTES,
      schema: {
        tags: TAGS,
        summary: 'Create a contact, or up to 1,000',
        description:
          `One contact, or \`{contacts: [...]}\` with up to ${MAX_CONTACTS_PER_REQUEST} (all or nothing: each bad record is named by its index ` +
          `in \`attributes\`, e.g. \`contacts.3.birthday\`). ${BRAND_NOTE} Records a Contacts/create event per contact.`,
        body: CreateContactsBody,
        response: { 200: CreateContactsResponse, ...errorResponses(...AUTHENTICATED_ERRORS, 413, 415) },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      const { bulk, records } = await createContacts(deps, actorOf(request), brand, request.body);
      return bulk ? okList(records, records.length) : ok(records[0] as ContactRecord);
    },
  );

  app.get(
    '/contacts',
    {
      schema: {
        tags: TAGS,
        summary: 'List contacts of the brand',
        description: `\`q\`: every word matches a name, email, phone number or company word by prefix. \`tags[]\`: any of them. \`order\`: +/- display_name, created_at, updated_at or last_touch. \`info.total\` is exact. ${BRAND_NOTE}`,
        querystring: ListContactsQuery,
        response: { 200: ListEnvelope(ContactRecord), ...ERRORS },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      const { records, total } = await listContacts(
        deps,
        actorOf(request),
        brand,
        request.query,
        associationsOf(request),
      );
      return okList(records, total);
    },
  );

  app.get(
    '/contacts/tags',
    {
      schema: {
        tags: TAGS,
        summary: 'Tags of the brand’s contacts, with counts',
        description: `Live contacts only, ordered by tag. ${BRAND_NOTE}`,
        response: { 200: ListEnvelope(ContactTag), ...ERRORS },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      const tags = await listTags(deps, actorOf(request), brand);
      return okList(tags, tags.length);
    },
  );

  app.get(
    '/contacts/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'A contact',
        description:
          '`associations[]=contact.triggers` embeds its triggers. A contact of a brand you cannot reach with CRM answers 404.',
        params: ContactParams,
        querystring: ContactQuery,
        response: { 200: Envelope(ContactRecord), ...ERRORS },
      },
      // The token, the contact and the caller's reach on its brand: one round trip (modules/auth/authenticate.ts).
      config: { bearerRead: contactBearerRead(deps) },
    },
    async (request) =>
      ok(
        await getContact(
          deps,
          actorOf(request),
          request.params.id,
          associationsOf(request),
          request.bearerRead as BearerWithContact | null,
        ),
      ),
  );

  app.patch(
    '/contacts/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Update a contact',
        description:
          'Only the fields sent change; null clears. `email` / `phone_number` make that value the primary one. Records a Contacts/update event.',
        params: ContactParams,
        querystring: ContactQuery,
        body: ContactInput,
        response: { 200: Envelope(ContactRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(await updateContact(deps, actorOf(request), request.params.id, request.body, associationsOf(request))),
  );

  app.delete(
    '/contacts/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a contact (soft)',
        description: 'Sets deleted_at; the contact then answers 404 and leaves lists. Records a Contacts/delete event.',
        params: ContactParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...ERRORS },
      },
    },
    async (request, reply) => {
      await deleteContacts(deps, actorOf(request), [request.params.id]);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/contacts',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete contacts (soft, all or nothing)',
        description: `Body \`{ids: [...]}\`, up to ${MAX_CONTACTS_PER_REQUEST}. If any is not a live contact you can reach, nothing is deleted (404).`,
        body: DeleteContactsBody,
        response: { 204: Type.Null({ description: 'Deleted' }), ...ERRORS },
      },
    },
    async (request, reply) => {
      await deleteContacts(deps, actorOf(request), request.body.ids);
      return reply.code(204).send(null);
    },
  );
};
