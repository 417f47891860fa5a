// /triggers (spec 4.5, decisions §7; docs/triggers.md). Wiring only.
import { Type } from '@sinclair/typebox';
import { associationsOf } from '../../platform/associations.js';
import { actorOf } from '../auth/index.js';
import { requireBrandContext } from '../brands/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import {
  AssociationsQuery,
  CreateTriggerBody,
  FilterTriggersQuery,
  TriggerParams,
  TriggerRecord,
  UpdateTriggerBody,
} from './triggers.schemas.js';
import { createTrigger, deleteTrigger, filterTriggers, getTrigger, updateTrigger } from './triggers.service.js';

const TAGS = ['Triggers'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const ACCESS = 'CRM ACL on the trigger’s brand; a trigger of a brand you cannot reach that way answers 404.';
const FIRE_TIME =
  '`effective_at` is the fire time: the next occurrence of the contact’s date at local midnight in the user’s time zone, plus `time` (seconds after midnight) plus `wait_for` (seconds, negative = before); Feb 29 fires on Feb 28 in other years.';

export const triggerRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'marketing');
  app.post(
    '/triggers',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a trigger',
        description:
          `The brand is X-RECHAT-BRAND, else the active brand (CRM ACL there, else 403). \`contact\` must be a contact of the brand (else 404) that has the event’s date (else 400); \`campaign\` an email campaign of the brand (Marketing ACL, else 404), which becomes the trigger’s template and is never sent on its own; \`user\` (default: you) a member of the brand. ${FIRE_TIME} ` +
          'At that time a copy of the campaign is scheduled for the contact; a recurring trigger then plans next year’s. `associations[]=trigger.campaign` embeds the campaign.',
        querystring: AssociationsQuery,
        body: CreateTriggerBody,
        response: { 200: Envelope(TriggerRecord), ...ERRORS },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      return ok(await createTrigger(deps, actorOf(request), brand, request.body, associationsOf(request)));
    },
  );

  app.get(
    '/triggers/filter',
    {
      schema: {
        tags: TAGS,
        summary: 'Triggers of the brand, filtered',
        description:
          'Live triggers of the X-RECHAT-BRAND brand (else the active brand; CRM ACL), by fire time, with any of `event_types[]`, `actions[]` and `contacts[]`; `info.total` is exact.',
        querystring: FilterTriggersQuery,
        response: { 200: ListEnvelope(TriggerRecord), ...ERRORS },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      const { records, total } = await filterTriggers(
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
    '/triggers/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'A trigger',
        description: ACCESS,
        params: TriggerParams,
        querystring: AssociationsQuery,
        response: { 200: Envelope(TriggerRecord), ...ERRORS },
      },
    },
    async (request) => ok(await getTrigger(deps, actorOf(request), request.params.id, associationsOf(request))),
  );

  app.patch(
    '/triggers/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Change a pending trigger',
        description: `Only the fields sent change; the fire time is planned again when they move it. 409 once the trigger has executed or failed. ${ACCESS}`,
        params: TriggerParams,
        querystring: AssociationsQuery,
        body: UpdateTriggerBody,
        response: { 200: Envelope(TriggerRecord), ...errorResponses(...AUTHENTICATED_ERRORS, 409) },
      },
    },
    async (request) =>
      ok(await updateTrigger(deps, actorOf(request), request.params.id, request.body, associationsOf(request))),
  );

  app.delete(
    '/triggers/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a trigger',
        description: `Also deletes the rest of its recurring chain, and cancels the campaigns not yet sent: those it scheduled, and its template when no other trigger uses it. ${ACCESS}`,
        params: TriggerParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...ERRORS },
      },
    },
    async (request, reply) => {
      await deleteTrigger(deps, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
