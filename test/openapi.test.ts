// The OpenAPI document tells the truth about the routes (docs/openapi.md). Generic: it reads the app's own route
// table and document, so a route added later is checked without editing this file.
import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../src/errors.js';
import { clientHeaders } from './helpers/listings.js';
import { routeTable, type RouteSummary } from '../src/platform/openapi.js';
import { useTestApp } from './helpers/app.js';
import { injectSettled, isStreamingOperation } from './helpers/inject.js';
import { bearer, createUser, tokenFor } from './helpers/factories.js';

/** Routes left out of the document on purpose, each with its reason. Anything else hidden fails the test. */
const HIDDEN: Record<string, string> = {
  'GET /openapi.json': 'the document itself',
  'GET /demo/logos/:name': "the demo brokerage's logo files (its marketing palette points at them)",
  'GET /demo/photos/:name': "the demo listings' photo files (their gallery_image_urls point at them)",
  'GET /extmail/linked': 'the page the browser returns to after linking a mailbox (HTML, docs/extmail.md)',
  'GET /l/:listing': 'the public listing page (HTML for people, docs/public-pages.md)',
  'GET /a/:token': "an alert's results page (HTML for people, docs/public-pages.md)",
  'GET /a/:token/preferences': "an alert's preferences page (HTML, docs/public-pages.md)",
  'POST /a/:token/preferences': "the alert preferences page's form (HTML, docs/public-pages.md)",
  'POST /l/:listing/ask': "the listing page's lead form (HTML, docs/public-pages.md)",
  'GET /l/:listing/ask/thanks': "the lead form's thanks page (HTML, docs/public-pages.md)",
  'GET /metrics': 'Prometheus text for operators (README)',
  'POST /mail/unsubscribe/:token/everything':
    'the unsubscribe confirmation page’s second button (HTML, docs/public-pages.md)',
  'GET /oauth2/auth/step': 'partner authorization page (HTML, docs/partner-authorization.md)',
  'POST /oauth2/auth/sign-in': 'partner authorization page form',
  'POST /oauth2/auth/sign-out': 'partner authorization page form',
  'POST /oauth2/auth/mfa': 'partner authorization page form',
  'POST /oauth2/auth/brand': 'partner authorization page form',
  'POST /oauth2/auth/decision': 'partner authorization page form',
  'GET /extmail/callback':
    'where Microsoft returns the browser after linking a mailbox (302 or an HTML page, docs/extmail.md)',
};
/** The reference page and its assets (@fastify/swagger-ui). */
const HIDDEN_PREFIX = '/docs';

/** Statuses outside the error catalogue that a route may declare, with the reason. */
const NON_CATALOGUE: Record<string, number[]> = {
  'GET /health': [503], // readiness: the health body, not an error body
  'GET /ready': [503], // readiness: the readiness body, not an error body
};

const CATALOGUE_STATUSES = new Set<number>(Object.values(ERROR_CATALOGUE));
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { in: string; name: string; required?: boolean; schema?: { default?: unknown } }[];
  requestBody?: {
    content: Record<string, { schema?: { required?: string[]; properties?: Record<string, { default?: unknown }> } }>;
  };
  responses?: Record<string, unknown>;
}
interface Document {
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const concrete = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, () => randomUUID());
const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

describe('OpenAPI document', () => {
  const t = useTestApp();
  let document: Document;
  let routes: RouteSummary[];
  let userHeaders: Record<string, string>;
  let feedHeaders: Record<string, string>;

  beforeAll(async () => {
    document = t.app.swagger() as unknown as Document;
    routes = routeTable(t.app).filter((route) => route.method !== 'HEAD'); // HEAD answers as GET does
    const user = await createUser(t.deps);
    userHeaders = bearer(await tokenFor(t.deps, user.id));
    feedHeaders = await clientHeaders(t.deps);
  });

  const operationOf = (route: RouteSummary) => document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
  const documented = () => routes.filter((route) => !route.hidden);
  /** A token the route accepts: a first-party client-credentials token where clients are admitted (ingest needs it). */
  const headersFor = (route: RouteSummary) =>
    route.auth === 'none' ? {} : route.auth === 'client' ? feedHeaders : userHeaders;
  const statusesOf = (route: RouteSummary) => Object.keys(operationOf(route)?.responses ?? {}).map(Number);

  // Issue 34 row 8: client generators and 3.1 validators refused the document (a draft-07 tuple in a request schema).
  it('is a valid OpenAPI 3.1 document, each of its schemas valid JSON Schema 2020-12', async () => {
    const served = (await t.app.inject({ url: '/openapi.json' })).json() as Record<string, unknown>;
    const validator = new Validator();
    const result = await validator.validate(structuredClone(served));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The OAS 3.1 schema leaves a Schema Object to its dialect (any object passes there), so each one is checked
    // against the JSON Schema 2020-12 meta-schema too: that is what rejects `items: [...]`.
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const problems: string[] = [];
    const check = (schema: unknown, where: string) => {
      if (schema !== undefined && !ajv.validateSchema(schema as object))
        problems.push(`${where}: ${ajv.errorsText(ajv.errors, { dataVar: 'schema' })}`);
    };
    type Content = Record<string, { schema?: unknown }>;
    type ServedOperation = {
      parameters?: { in: string; name: string; schema?: unknown }[];
      requestBody?: { content?: Content };
      responses?: Record<string, { content?: Content; headers?: Record<string, { schema?: unknown }> }>;
    };
    const paths = served.paths as Record<string, Record<string, ServedOperation>>;
    let checked = 0;
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const at = `${method.toUpperCase()} ${path}`;
        for (const parameter of operation.parameters ?? [])
          check(parameter.schema, `${at} ${parameter.in} ${parameter.name}`);
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
          check(media.schema, `${at} body ${type}`);
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          for (const [type, media] of Object.entries(response.content ?? {}))
            check(media.schema, `${at} ${status} ${type}`);
          for (const [name, header] of Object.entries(response.headers ?? {}))
            check(header.schema, `${at} ${status} header ${name}`);
        }
        checked++;
      }
    }
    const components = (served.components as { schemas?: Record<string, unknown> } | undefined)?.schemas ?? {};
    for (const [name, schema] of Object.entries(components)) check(schema, `components.schemas.${name}`);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it('documents every route but the listed ones, and nothing else', () => {
    expect(routes.length).toBeGreaterThan(10);
    const hidden = routes
      .filter((route) => route.hidden && !route.url.startsWith(HIDDEN_PREFIX))
      .map(key)
      .sort();
    expect(hidden).toEqual(Object.keys(HIDDEN).sort());
    for (const route of routes) if (route.url.startsWith(HIDDEN_PREFIX)) expect(route.hidden, key(route)).toBe(true);
    for (const route of documented()) expect(operationOf(route), `${key(route)} is not in the document`).toBeDefined();
    const known = new Set(documented().map((route) => `${route.method.toLowerCase()} ${openApiPath(route.url)}`));
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations))
        expect(known.has(`${method} ${path}`), `${method} ${path} is documented but not routed`).toBe(true);
    }
  });

  it('gives every operation a summary, a description and one tag of the declared set', () => {
    const tags = new Set(document.tags.map((tag) => tag.name));
    for (const route of documented()) {
      const operation = operationOf(route)!;
      expect(operation.summary?.trim(), `${key(route)} summary`).toBeTruthy();
      expect(operation.description?.trim(), `${key(route)} description`).toBeTruthy();
      expect(operation.tags, `${key(route)} tags`).toHaveLength(1);
      expect(
        tags.has(operation.tags![0]!),
        `${key(route)} tag ${operation.tags![0]} is not one of ${[...tags].join(', ')}`,
      ).toBe(true);
    }
  });

  it('declares a success and only error statuses of the catalogue', () => {
    for (const route of documented()) {
      const statuses = statusesOf(route);
      expect(
        statuses.some((status) => status >= 200 && status < 400),
        `${key(route)} has no success response`,
      ).toBe(true);
      const allowed = new Set(NON_CATALOGUE[key(route)] ?? []);
      for (const status of statuses.filter((s) => s >= 400)) {
        expect(
          CATALOGUE_STATUSES.has(status) || allowed.has(status),
          `${key(route)} declares ${status}, not in src/errors.ts`,
        ).toBe(true);
      }
    }
  });

  it('marks public routes security: [] and gives 401 only to routes that authenticate', async () => {
    for (const route of documented()) {
      const operation = operationOf(route)!;
      const declares401 = statusesOf(route).includes(401);
      if (route.auth === 'none') {
        expect(operation.security, `${key(route)} is public`).toEqual([]);
        // the token endpoints authenticate clients (401 invalid_client); other public routes never answer 401
        expect(declares401, `${key(route)} 401`).toBe(route.clientAuth);
      } else {
        expect(operation.security, `${key(route)} needs a token`).not.toEqual([]);
        expect(declares401, `${key(route)} must declare 401`).toBe(true);
        const anonymous = await t.app.inject({ method: route.method as 'GET', url: concrete(route.url) });
        // A route with an optional token validates the anonymous request first (it needs a brand in its body).
        if (route.auth === 'optional')
          expect([400, 401], `${key(route)} without a token`).toContain(anonymous.statusCode);
        else expect(anonymous.statusCode, `${key(route)} without a token`).toBe(401);
      }
    }
  });

  it('declares 413 (with the route’s limit, as its message says) and 415 exactly where they are answered', async () => {
    const oversized = 'x'.repeat(9 * 1024 * 1024); // over every route's body limit (ingest reads up to 8 MiB)
    for (const route of documented()) {
      const url = concrete(route.url);
      const method = route.method as 'POST';
      // An event stream (GET /notifications/stream) ignores a GET body and stays open: read it up to its head.
      const inject = (options: InjectOptions) =>
        isStreamingOperation(operationOf(route)) ? injectSettled(t.app, options) : t.app.inject(options);
      const tooLarge = await inject({
        method,
        url,
        headers: { ...headersFor(route), 'content-type': 'application/json' },
        payload: oversized,
      });
      expect(statusesOf(route).includes(413), `${key(route)} answered ${tooLarge.statusCode} to a 9 MiB body`).toBe(
        tooLarge.statusCode === 413,
      );
      if (tooLarge.statusCode === 413) {
        // The limit the document states is the one the route applies and its message names (issue 34 row 4).
        const described = (operationOf(route)?.responses?.['413'] as { description?: string } | undefined)?.description;
        const limit = /larger than (\d+(?:\.\d+)? [KMG]iB)$/.exec(described ?? '')?.[1];
        expect(limit, `${key(route)}: 413 described as ${described}`).toBeDefined();
        expect((JSON.parse(tooLarge.body) as { message: string }).message).toBe(
          `The request body is larger than this route's limit of ${limit}`,
        );
      }
      const foreign = await inject({
        method,
        url,
        headers: { ...headersFor(route), 'content-type': 'application/xml' },
        payload: '<x/>',
      });
      expect(statusesOf(route).includes(415), `${key(route)} answered ${foreign.statusCode} to application/xml`).toBe(
        foreign.statusCode === 415,
      );
    }
  });

  // Issue 34 row 10: 431 and 414 were answered but not declared.
  it('declares 431 everywhere, and 414 exactly where an overlong path segment is answered with it', async () => {
    for (const route of documented()) {
      expect(statusesOf(route), `${key(route)} 431`).toContain(431); // test/hardening.test.ts sends the headers
      const hasParameters = /:\w/.test(route.url);
      expect(statusesOf(route).includes(414), `${key(route)} 414`).toBe(hasParameters);
      if (!hasParameters) continue;
      const url = route.url.replace(/:(\w+)/g, () => 'a'.repeat(5000)); // over every parameter's limit
      const options = { method: route.method as 'GET', url, headers: headersFor(route) };
      const answer = isStreamingOperation(operationOf(route))
        ? await injectSettled(t.app, options)
        : await t.app.inject(options);
      expect(answer.statusCode, `${key(route)} with a 5000-character segment`).toBe(414);
    }
  });

  it('accepts every documented request content type', async () => {
    const samples: Record<string, string> = { 'application/json': '{}', 'application/x-www-form-urlencoded': 'a=1' };
    for (const route of documented()) {
      for (const type of Object.keys(operationOf(route)!.requestBody?.content ?? {})) {
        expect(samples[type], `${key(route)}: no sample for ${type}`).toBeDefined();
        const response = await t.app.inject({
          method: route.method as 'POST',
          url: concrete(route.url),
          headers: { ...headersFor(route), 'content-type': type },
          payload: samples[type],
        });
        expect(response.statusCode, `${key(route)} with ${type}`).not.toBe(415);
      }
    }
  });

  it('declares 405 on every path, and another method on the path answers 405 with Allow', async () => {
    const byPath = new Map<string, RouteSummary[]>();
    for (const route of documented()) byPath.set(route.url, [...(byPath.get(route.url) ?? []), route]);
    for (const [url, onPath] of byPath) {
      const declared = onPath.map((route) => statusesOf(route).includes(405));
      expect(new Set(declared).size, `${url}: all operations or none declare 405`).toBe(1);
      const methods = routes.filter((route) => route.url === url).map((route) => route.method);
      const other = METHODS.find((method) => !methods.includes(method))!;
      expect(declared[0], `${url}: its operations list 405`).toBe(true);
      if (!declared[0]) continue;
      const response = await t.app.inject({ method: other, url: concrete(url), headers: userHeaders });
      expect(response.statusCode, `${other} ${url}`).toBe(405);
      expect(String(response.headers.allow).split(/,\s*/).sort(), `${other} ${url} Allow`).toEqual(
        expect.arrayContaining(methods.filter((m) => m !== 'HEAD')),
      );
    }
  });

  it('requires no parameter or body field that has a default', () => {
    for (const route of documented()) {
      const operation = operationOf(route)!;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema?.default !== undefined)
          expect(parameter.required, `${key(route)} ${parameter.in} ${parameter.name}`).not.toBe(true);
      }
      for (const content of Object.values(operation.requestBody?.content ?? {})) {
        for (const name of content.schema?.required ?? [])
          expect(content.schema?.properties?.[name]?.default, `${key(route)} body ${name}`).toBeUndefined();
      }
      if (route.url === '/boundaries/search')
        expect(operation.parameters?.find((p) => p.name === 'start')?.required).not.toBe(true);
    }
  });
});
