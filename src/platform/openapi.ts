// OpenAPI 3.1 generated from the route schemas, served at /openapi.json, with a reference page at /docs.
// The document is derived from what the platform does, not typed again per route (docs/openapi.md):
// - a route with `config.auth: 'none'` needs no bearer token (`security: []`); 'optional' takes one or none (`security: [{}, bearer]`);
// - the bearer requirement names the route's `config.scope` (OpenAPI 3.1 allows it for any scheme);
// - a route whose method carries a body can answer 413 (over the body limit) and 415 (a content type other
//   than the ones it parses), so those are added to it;
// - every path answers 405 with `Allow` to the methods it does not have (platform/methods.ts), so its operations list 405;
// - every request can answer 431 (headers over Node's limit, platform/error-handler.ts), and a route with path
//   parameters 414 (a segment over its limit, platform/path-segments.ts), so those are added too;
// - a query or body field with a default is optional, whatever the schema's `required` says (Ajv fills it in);
// - every response gets a description (the catalogue code for errors).
// test/openapi.test.ts checks the document against the routes and what they answer.
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../config.js';
import type { AuthRequirement } from './auth-requirement.js';
import { API_SCOPES, type RouteScope } from './api-scopes.js';
import { ERROR_CATALOGUE } from '../errors.js';
import { DEFAULT_BODY_LIMIT_BYTES, ErrorBody } from './schemas.js';
import { ID_SEGMENT_MAX } from './path-segments.js';
import { byteSize } from '../lib/byte-size.js';

/** Every operation carries exactly one of these tags. */
export const API_TAGS = [
  {
    name: 'OAuth 2',
    description:
      'Tokens, revocation and server metadata (docs/oauth.md); partner authorization (docs/partner-authorization.md).',
  },
  { name: 'MFA', description: 'TOTP multi-factor authentication of the calling user.' },
  { name: 'Users', description: 'The calling user: record, profile, password, active brand.' },
  { name: 'Boundaries', description: 'Countries, states, counties and imported places (docs/boundaries.md).' },
  { name: 'Contacts', description: 'CRM contacts, their tags and timeline activities (docs/contacts.md).' },
  {
    name: 'Leads',
    description: 'Lead capture: posted leads, lead channels and their public capture endpoint (docs/contacts.md).',
  },
  {
    name: 'Email campaigns',
    description:
      'Email campaigns sent over SMTP, scheduled, personalised, with counters (docs/emails.md, docs/mail.md).',
  },
  {
    name: 'Triggers',
    description:
      'Email campaigns scheduled around contacts’ dates (birthdays, anniversaries) in the user’s time zone (docs/triggers.md).',
  },
  {
    name: 'Brands',
    description: 'Brand profiles with their marketing palette, sub-brands and rosters (docs/existing-clients.md).',
  },
  {
    name: 'Saved searches',
    description: 'Brand-owned listing searches, run on demand and alerting linked contacts (docs/saved-searches.md).',
  },
  {
    name: 'Listings',
    description: 'Listing records, MLS ingest and listing search (docs/listings.md, docs/listing-search.md).',
  },
  {
    name: 'Webhooks',
    description:
      'Brand webhooks: signed, retried deliveries of domain events to a URL of the brand (docs/webhooks.md).',
  },
  {
    name: 'Notifications',
    description: 'Your in-app notification feed, device tokens and live stream (docs/notifications.md).',
  },
  {
    name: 'Templates',
    description: 'Print and social templates, and template instances rendered from them (docs/templates.md).',
  },
  { name: 'Print campaigns', description: 'A brand’s print campaigns and their stats (docs/print-campaigns.md).' },
  { name: 'Files', description: 'Stored files behind signed, expiring URLs (docs/files.md).' },
  { name: 'Deals', description: 'Deals (transactions) with their context and roles (docs/deals.md).' },
  { name: 'Showings', description: 'Showings of listings to contacts (docs/showings.md).' },
  {
    name: 'External mail',
    description: 'Linked Microsoft 365 mailboxes: link, contacts sync, sending through them (docs/extmail.md).',
  },
  { name: 'Operations', description: 'Liveness, readiness and the status of each feature, for operators.' },
] as const;
export type ApiTag = (typeof API_TAGS)[number]['name'];

/** Methods whose requests Fastify parses a body for: they can answer 413 and 415. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One route as registered (HEAD routes included), for the documentation test and for operators. */
export interface RouteSummary {
  method: string;
  url: string;
  auth: AuthRequirement;
  /** The scope a token needs (platform/api-scopes.ts); undefined on public routes, and on a route that forgot it. */
  scope: RouteScope | undefined;
  /** The route also authenticates clients itself (the /oauth2 endpoints: 401 invalid_client). */
  clientAuth: boolean;
  hidden: boolean;
  hasBody: boolean;
}

/** Each registered route's options with one of its methods: read when asked, after every plugin's onRoute hook. */
const routeTables = new WeakMap<FastifyInstance, { method: string; route: RouteOptions }[]>();

/** The routes registered on an app built by buildApp (after registerOpenApi). */
export function routeTable(app: FastifyInstance): readonly RouteSummary[] {
  const table = routeTables.get(app);
  if (!table) throw new Error('routeTable: this app was not built with registerOpenApi');
  return table.map(({ method, route }) => ({
    method,
    url: route.url,
    auth: route.config?.auth ?? 'user',
    scope: route.config?.scope,
    clientAuth: route.config?.oauthErrors === true,
    hidden: route.schema?.hide === true,
    hasBody: route.schema?.body !== undefined,
  }));
}

const ERROR_DESCRIPTIONS: Record<number, string> = Object.fromEntries(
  Object.values(ERROR_CATALOGUE).map((status) => [
    status,
    (Object.keys(ERROR_CATALOGUE) as (keyof typeof ERROR_CATALOGUE)[])
      .filter((code) => ERROR_CATALOGUE[code] === status)
      .join(' or '),
  ]),
);
/** What a 431 says: the request line and headers over Node's limit (error-handler.ts answers it on the socket). */
const HEADERS_TOO_LARGE = 'the request line and headers are larger than 16 KiB';
const SUCCESS_DESCRIPTIONS: Record<string, string> = { '200': 'OK', '201': 'Created', '204': 'No content' };

export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  const table: { method: string; route: RouteOptions }[] = [];
  routeTables.set(app, table);
  // A plugin's own onRoute hooks run after this one and may still set the route's config (declareRouteScopes).
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) table.push({ method, route });
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.appName} API`,
        version: '1',
        description:
          'Real-estate platform API: OAuth 2, MFA, brands, listings search, boundaries. See docs/ in the repository. ' +
          'Errors answer `{http, code, message, attributes?}` (docs/errors.md); any request may also answer 500 `Internal`, which is a bug.',
      },
      servers: [{ url: config.baseUrl }],
      tags: API_TAGS.map((tag) => ({ ...tag })),
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An access token from POST /oauth2/token. Each operation names the scope its token needs; `full` holds ' +
              `every API scope, a \`:write\` scope its \`:read\` (docs/oauth.md): ${API_SCOPES.join(', ')}.`,
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: ({ schema, url, route }) => ({ schema: documentedSchema(schema, url, route), url }),
    transformObject: (document) =>
      describeResponses((document as unknown as { openapiObject: OpenApiDocument }).openapiObject),
  });
  // The reference page and its assets are public, like the document they render.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, auth: 'none' };
    });
    await scope.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  });
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () => app.swagger());
}

type SchemaObject = { properties?: Record<string, { default?: unknown }>; required?: string[]; [key: string]: unknown };

function documentedSchema(schema: FastifySchema | undefined, url: string, route: RouteOptions): FastifySchema {
  if (!schema || schema.hide) return schema ?? {};
  const out: FastifySchema = { ...schema };
  // OpenAPI 3.1 lets a non-OAuth scheme name what a caller needs: the route's scope (docs/oauth.md, Scopes).
  const scope = route.config?.scope;
  const bearer = { bearer: scope && scope !== 'any' ? [scope] : [] };
  if (out.security === undefined)
    out.security = route.config?.auth === 'none' ? [] : route.config?.auth === 'optional' ? [{}, bearer] : [bearer];
  if (schema.querystring) out.querystring = withDefaultsOptional(schema.querystring as SchemaObject);
  if (schema.body) out.body = withDefaultsOptional(schema.body as SchemaObject);
  const response: Record<string, unknown> = { ...(schema.response as Record<string, unknown> | undefined) };
  const methods = [route.method].flat();
  if (methods.some((method) => BODY_METHODS.has(method))) {
    // The route's own limit, as its 413 message names it (error-handler.ts).
    const limit = byteSize(route.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES);
    response['413'] = { ...ErrorBody, description: `PayloadTooLarge: the body is larger than ${limit}` };
    response['415'] ??= ErrorBody;
  }
  // Any other method on a route's path answers 405 with Allow (platform/error-handler.ts), parameters or not.
  if (!url.includes('*')) response['405'] ??= ErrorBody;
  // A path parameter longer than the route takes: 414 before anything reads it, with the limit in the message.
  const parameters = [...url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  if (parameters.length > 0) {
    const limits = parameters.map((name) => `:${name} ${route.config?.pathParamLimits?.[name] ?? ID_SEGMENT_MAX}`);
    response['414'] = {
      ...ErrorBody,
      description: `URITooLong: a path segment is longer than its limit (${limits.join(', ')} characters)`,
    };
  }
  // Headers over Node's limit are refused on the socket before any route is chosen: any operation can answer it.
  response['431'] = { ...ErrorBody, description: `RequestHeaderFieldsTooLarge: ${HEADERS_TOO_LARGE}` };
  out.response = response;
  return out;
}

/** A field with a default may be left out: Ajv (useDefaults) fills it in before `required` is checked. */
function withDefaultsOptional(schema: SchemaObject): SchemaObject {
  if (!schema.properties || !Array.isArray(schema.required)) return schema;
  const properties = schema.properties;
  const required = schema.required.filter((name) => properties[name]?.default === undefined);
  return required.length === schema.required.length ? schema : { ...schema, required };
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, { responses?: Record<string, { description?: string }> }>>;
  [key: string]: unknown;
}

function describeResponses(document: OpenApiDocument): OpenApiDocument {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.description && response.description !== 'Default Response') continue;
        response.description =
          status === '405'
            ? 'MethodNotAllowed: the path exists with other methods (listed in `Allow`)'
            : (ERROR_DESCRIPTIONS[Number(status)] ?? SUCCESS_DESCRIPTIONS[status] ?? 'Response');
      }
    }
  }
  return document;
}
