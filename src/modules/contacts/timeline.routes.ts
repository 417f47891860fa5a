// /contacts/:id/timeline (decisions §7, §14; docs/contacts.md). Wiring only.
import { actorOf } from '../auth/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { ContactParams } from './contacts.schemas.js';
import { ActivityRecord, RecordActivityBody, TimelineQuery } from './timeline.schemas.js';
import { KNOWN_ACTIONS, listTimeline, recordActivity } from './timeline.service.js';

const TAGS = ['Contacts'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);

export const timelineRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, { read: 'contacts:read', write: 'contacts:write' });
  app.post(
    '/contacts/:id/timeline',
    {
      schema: {
        tags: TAGS,
        summary: 'Record an activity on a contact',
        description:
          `Named actions and what they carry: ${Object.entries(KNOWN_ACTIONS)
            .map(([action, rule]) => `${action} (${rule.requires})`)
            .join(', ')}; ` +
          'other Contact<Verb><Object> actions may carry any. A listing given by id or MLS number is stored as spec §6 shows it. ' +
          'Sets the contact’s last_touch; records an Activities event (spec §6 payload) and a Contacts update.',
        params: ContactParams,
        body: RecordActivityBody,
        response: { 200: Envelope(ActivityRecord), ...ERRORS },
      },
    },
    async (request) => ok(await recordActivity(deps, actorOf(request), request.params.id, request.body)),
  );

  app.get(
    '/contacts/:id/timeline',
    {
      schema: {
        tags: TAGS,
        summary: 'A contact’s timeline, newest first',
        description:
          'Activities recorded on the contact (POST /contacts/:id/timeline), newest first, paged with start/limit and an exact total. CRM access.',
        params: ContactParams,
        querystring: TimelineQuery,
        response: { 200: ListEnvelope(ActivityRecord), ...ERRORS },
      },
    },
    async (request) => {
      const { records, total } = await listTimeline(deps, actorOf(request), request.params.id, request.query);
      return okList(records, total);
    },
  );
};
