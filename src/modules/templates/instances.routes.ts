// /templates/:id/instances and /templates/instances (decisions §11; docs/templates.md). Wiring only.
import { Type } from '@sinclair/typebox';
import { actorOf } from '../auth/index.js';
import { associationsOf } from '../../platform/associations.js';
import { requireBrandContext } from '../brands/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import {
  CreateInstanceBody,
  InstanceParams,
  InstanceQuery,
  InstanceRecord,
  ListInstancesQuery,
  TemplateParams,
} from './instances.schemas.js';
import { createInstance, deleteInstance, getInstance, listInstances } from './instances.service.js';
import { TEMPLATE_BODY_LIMIT_BYTES } from './templates.routes.js';

const TAGS = ['Templates'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
const BRAND_NOTE = 'The brand is X-RECHAT-BRAND, else the active brand; the Marketing ACL is needed there.';

export const instanceRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'marketing');
  app.post(
    '/templates/:id/instances',
    {
      bodyLimit: TEMPLATE_BODY_LIMIT_BYTES,
      schema: {
        tags: TAGS,
        summary: 'Make a template instance',
        description:
          'Renders the template with the named listings and contacts and the calling user (or takes the client’s edited `html`), cleans the result and ' +
          'stores it as a file. Variables the records lack render empty and are listed in `unknown_variables`. `deals` are not available yet (a non-empty list is a 400). ' +
          `A listing that does not exist, or a contact that is not the brand’s or that you cannot see (CRM), is a 404. ${BRAND_NOTE}`,
        params: TemplateParams,
        querystring: InstanceQuery,
        body: CreateInstanceBody,
        response: { 200: Envelope(InstanceRecord), ...errorResponses(...AUTHENTICATED_ERRORS, 413) },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      return ok(
        await createInstance(deps, actorOf(request), brand, request.params.id, request.body, associationsOf(request)),
      );
    },
  );

  app.get(
    '/templates/instances',
    {
      schema: {
        tags: TAGS,
        summary: 'Your template instances in the brand',
        description: `Newest first; \`mediums[]\` filters. \`associations[]=template_instance.template\` embeds the template. ${BRAND_NOTE}`,
        querystring: ListInstancesQuery,
        response: { 200: ListEnvelope(InstanceRecord), ...ERRORS },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      const { records, total } = await listInstances(
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
    '/templates/instances/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'A template instance',
        description:
          'An instance of a brand where you lack the Marketing ACL answers 404. The file’s URLs are signed and last 24 hours.',
        params: InstanceParams,
        querystring: InstanceQuery,
        response: { 200: Envelope(InstanceRecord), ...ERRORS },
      },
    },
    async (request) => ok(await getInstance(deps, actorOf(request), request.params.id, associationsOf(request))),
  );

  app.delete(
    '/templates/instances/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a template instance (soft)',
        description: 'Only its creator may (403 for others who can see it). Print campaigns made from it keep it.',
        params: InstanceParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...ERRORS },
      },
    },
    async (request, reply) => {
      await deleteInstance(deps, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
