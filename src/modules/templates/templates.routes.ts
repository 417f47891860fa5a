// /templates and /brands/:brand/templates (decisions §11; docs/templates.md). Wiring only.
import { actorOf } from '../auth/index.js';
import { requireBrandContext } from '../brands/index.js';
import { AUTHENTICATED_ERRORS, Envelope, errorResponses, ListEnvelope, ok, okList } from '../../platform/schemas.js';
import type { FeatureRoutes } from '../../platform/feature.js';
import { declareRouteScopes } from '../../platform/api-scopes.js';
import { BrandParams, CreateTemplateBody, TemplateFilterQuery, TemplateRecord } from './templates.schemas.js';
import { createTemplate, listTemplates } from './templates.service.js';

const TAGS = ['Templates'];
const ERRORS = errorResponses(...AUTHENTICATED_ERRORS);
/** A template is at most 2 MiB of HTML; JSON escaping can nearly double it. */
export const TEMPLATE_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

export const templateRoutes: FeatureRoutes = async (app, { deps }) => {
  declareRouteScopes(app, 'marketing');
  app.get(
    '/templates',
    {
      schema: {
        tags: TAGS,
        summary: 'Templates the brand can use',
        description:
          'The global (shipped) templates and those of the brand and its ancestors, global first. `mediums[]` and `template_types[]` filter (any of them); ' +
          'an unknown medium is a 400 naming the allowed ones. The brand is X-RECHAT-BRAND, else the active brand; the Marketing ACL is needed there.',
        querystring: TemplateFilterQuery,
        response: { 200: ListEnvelope(TemplateRecord), ...ERRORS },
      },
    },
    async (request) => {
      const brand = await requireBrandContext(deps, request);
      const { records, total } = await listTemplates(deps, actorOf(request), brand, request.query);
      return okList(records, total);
    },
  );

  app.get(
    '/brands/:brand/templates',
    {
      schema: {
        tags: TAGS,
        summary: 'Templates of a brand',
        description: 'Same as GET /templates for the brand in the path (Marketing ACL, else 403).',
        params: BrandParams,
        querystring: TemplateFilterQuery,
        response: { 200: ListEnvelope(TemplateRecord), ...ERRORS },
      },
    },
    async (request) => {
      const { records, total } = await listTemplates(deps, actorOf(request), request.params.brand, request.query);
      return okList(records, total);
    },
  );

  app.post(
    '/brands/:brand/templates',
    {
      bodyLimit: TEMPLATE_BODY_LIMIT_BYTES,
      schema: {
        tags: TAGS,
        summary: 'Add a template to a brand',
        description:
          'The HTML is sanitised before it is stored: scripts, event handlers, frames and forms are removed, fonts load only from the allow-listed hosts, ' +
          '`file:` URLs and private addresses are removed (docs/templates.md). `variables` and `inputs` are read from the template. Marketing ACL.',
        params: BrandParams,
        body: CreateTemplateBody,
        response: { 200: Envelope(TemplateRecord), ...errorResponses(...AUTHENTICATED_ERRORS, 413) },
      },
    },
    async (request) => ok(await createTemplate(deps, actorOf(request), request.params.brand, request.body)),
  );
};
