// /brands/:brand/triggers (issue 10 item 4; docs/triggers.md). Wiring only.
import { actorOf } from '../auth/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import {
  BrandEventParams,
  BrandParams,
  BrandTriggerParams,
  BrandTriggerRecord,
  ExclusionBody,
  ExclusionParams,
  PutBrandTriggerBody,
} from './brand-triggers.schemas.js';
import {
  excludeContact,
  listBrandTriggers,
  putBrandTrigger,
  setBrandTriggerEnabled,
} from './brand-triggers.service.js';

const TAGS = ['Triggers'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const ACCESS = 'CRM ACL on the brand (else 403).';

export const brandTriggerRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'marketing');
  app.put(
    '/brands/:brand/triggers/:event_type',
    {
      schema: {
        tags: TAGS,
        summary: 'Set the brand’s trigger of an event',
        description: `Every contact of the brand with that date (birthday, home or wedding anniversary) and an email gets \`subject\`/\`html\` (Liquid, personalised) at local midnight of the date in your time zone + \`time\` + \`wait_for\`, once a year, sent by you. A contact with a trigger of their own for the event, an excluded contact and an unsubscribed one are left out. Setting it again replaces the message and makes you the sender; occurrences already past are never sent. ${ACCESS}`,
        params: BrandEventParams,
        body: PutBrandTriggerBody,
        response: { 200: Envelope(BrandTriggerRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(
        await putBrandTrigger(
          deps,
          actorOf(request),
          request.params.brand.toLowerCase(),
          request.params.event_type,
          request.body,
        ),
      ),
  );

  app.get(
    '/brands/:brand/triggers',
    {
      schema: {
        tags: TAGS,
        summary: 'The brand’s triggers',
        description: `One per event type that was set. ${ACCESS}`,
        params: BrandParams,
        response: { 200: ListEnvelope(BrandTriggerRecord), ...ERRORS },
      },
    },
    async (request) => {
      const records = await listBrandTriggers(deps, actorOf(request), request.params.brand.toLowerCase());
      return okList(records, records.length);
    },
  );

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.patch(
      `/brands/:brand/triggers/:id/${action}`,
      {
        schema: {
          tags: TAGS,
          summary: `${enabled ? 'Enable' : 'Disable'} a brand trigger`,
          description: `${enabled ? 'It sends again from now on (what fired while it was disabled is not sent late).' : 'It sends nothing until enabled.'} ${ACCESS}`,
          params: BrandTriggerParams,
          response: { 200: Envelope(BrandTriggerRecord), ...ERRORS },
        },
      },
      async (request) =>
        ok(
          await setBrandTriggerEnabled(
            deps,
            actorOf(request),
            request.params.brand.toLowerCase(),
            request.params.id,
            enabled,
          ),
        ),
    );
  }

  app.post(
    '/brands/:brand/triggers/:event_type/exclusion',
    {
      schema: {
        tags: TAGS,
        summary: 'Leave a contact out of a brand trigger',
        description: `\`contact\` must be a contact of the brand (else 404). ${ACCESS}`,
        params: BrandEventParams,
        body: ExclusionBody,
        response: { 200: Envelope(BrandTriggerRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(
        await excludeContact(
          deps,
          actorOf(request),
          request.params.brand.toLowerCase(),
          request.params.event_type,
          request.body.contact,
          true,
        ),
      ),
  );

  app.delete(
    '/brands/:brand/triggers/:event_type/exclusion/:contact',
    {
      schema: {
        tags: TAGS,
        summary: 'Include an excluded contact in a brand trigger again',
        description: ACCESS,
        params: ExclusionParams,
        response: { 200: Envelope(BrandTriggerRecord), ...ERRORS },
      },
    },
    async (request) =>
      ok(
        await excludeContact(
          deps,
          actorOf(request),
          request.params.brand.toLowerCase(),
          request.params.event_type,
          request.params.contact,
          false,
        ),
      ),
  );
};
