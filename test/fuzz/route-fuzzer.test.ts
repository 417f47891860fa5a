// The route fuzzer: for every operation of the app's own OpenAPI document, a seeded battery of bad input
// (test/fuzz/cases.ts) without a token, with a user token and with a client token. Every answer must be below
// 500; every JSON refusal must have the error shape of decisions §1 (the token endpoints also RFC 6749's); a
// refusal must change nothing in the database. Routes added later are covered without editing this file.
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ERROR_CATALOGUE } from '../../src/errors.js';
import { routeTable } from '../../src/platform/openapi.js';
import { useTestApp } from '../helpers/app.js';
import { injectSettled, isStreamingOperation } from '../helpers/inject.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from '../helpers/factories.js';
import { clientHeaders } from '../helpers/listings.js';
import { casesFor, seededRandom, type FuzzCase, type JsonSchema, type Operation } from './cases.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Methods tried on every path that lacks them: the standard ones, and two no route takes. */
const OTHER_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'QUERY', 'PROPFIND'];
const OAUTH_FORM_ROUTES = new Set(['/oauth2/token', '/oauth2/revoke']);
/** Writes that a refusal is allowed to make, by design: failed-attempt and rate-limit counters, page sessions. */
const STATE_EXEMPT_TABLES = [
  'attempt_counters',
  'rate_limit_windows',
  'web_sessions',
  'schema_migrations',
  'schema_migrations_lock',
];

/** Whether a request body schema is an object (alone, or among the variants of a union), not a scalar or array. */
function takesObject(schema: JsonSchema): boolean {
  const types = [schema.type].flat();
  return types.includes('object') || [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some(takesObject);
}

interface Failure {
  route: string;
  label: string;
  auth: string;
  problem: string;
}

describe('route fuzzer', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let fixtures: Record<string, string>;
  let authVariants: { name: string; headers: Record<string, string> }[];
  let fingerprint: () => Promise<string>;

  beforeAll(async () => {
    const brand = await createBrand(t.deps, { name: 'Fuzz Realty' });
    const foreign = await createBrand(t.deps, { name: 'Elsewhere Realty' });
    const user = await createUser(t.deps);
    await addMembership(t.deps, user.id, brand.id);
    const token = await tokenFor(t.deps, user.id);
    fixtures = {
      brand: brand.id,
      id: '00000000-0000-4000-8000-000000000001',
      uuid: '00000000-0000-4000-8000-000000000002',
      foreignBrand: foreign.id,
      mls: 'FUZZ',
      wid: '00000000-0000-4000-8000-000000000003',
    };
    authVariants = [
      { name: 'no token', headers: {} },
      { name: 'user token', headers: { ...bearer(token), 'x-rechat-brand': brand.id } },
      { name: 'client token', headers: await clientHeaders(t.deps) },
    ];
    const tables = await sql<{
      name: string;
    }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(
      t.deps.db,
    );
    const watched = tables.rows
      .map((row) => row.name)
      .filter((name) => !STATE_EXEMPT_TABLES.includes(name))
      .sort();
    // A counter that a trigger on every watched table bumps for each row inserted, updated or deleted (and each
    // truncate): reading one row per request costs far less than counting ~50 tables before and after it. The
    // counter's update commits or rolls back with the write, as the write's own rows do.
    await sql`create table fuzz_writes (n bigint not null)`.execute(t.deps.db);
    await sql`insert into fuzz_writes values (0)`.execute(t.deps.db);
    await sql`create function fuzz_count_write() returns trigger language plpgsql as $$ begin update fuzz_writes set n = n + 1; return null; end $$`.execute(
      t.deps.db,
    );
    for (const name of watched) {
      await sql`create trigger fuzz_rows after insert or update or delete on ${sql.table(name)} for each row execute function fuzz_count_write()`.execute(
        t.deps.db,
      );
      await sql`create trigger fuzz_truncate after truncate on ${sql.table(name)} for each statement execute function fuzz_count_write()`.execute(
        t.deps.db,
      );
    }
    // Jobs too: a refusal must not enqueue work (test apps run no scheduler, so nothing else writes there).
    await sql`create trigger fuzz_rows after insert or update or delete on pgboss.job for each row execute function fuzz_count_write()`.execute(
      t.deps.db,
    );
    fingerprint = async () => (await sql<{ n: string }>`select n::text from fuzz_writes`.execute(t.deps.db)).rows[0]!.n;
    // An access token records its first use, a write made before any route decides: spend it on each token now.
    for (const auth of authVariants) await t.app.inject({ url: '/users/self', headers: auth.headers });
  });

  // Its own time limit: ~4,000 requests take 15–25 s alone; every route adds ~180 requests, and on a shared,
  // loaded machine (load 20 on 2 cores) the whole run took more than 180 s.
  it(
    'answers every bad input on every documented route with a 4xx in the error shape, and changes nothing',
    { timeout: 900_000 },
    async () => {
      const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
        paths: Record<string, Record<string, Operation>>;
      };
      const failures: Failure[] = [];
      let requests = 0;
      const random = seededRandom(20261123);
      // FUZZ_PATHS (a regular expression) narrows a local run to the routes being worked on; CI fuzzes them all.
      const only = process.env.FUZZ_PATHS ? new RegExp(process.env.FUZZ_PATHS) : null;
      for (const [path, item] of Object.entries(doc.paths)) {
        if (only && !only.test(path)) continue;
        for (const method of METHODS) {
          const operation = item[method];
          if (!operation) continue;
          const route = `${method.toUpperCase()} ${path}`;
          for (const fuzzCase of casesFor(path, operation, fixtures, random)) {
            for (const auth of authVariants) {
              const before = await fingerprint();
              const problem = await send(method, path, fuzzCase, auth.headers, before, isStreamingOperation(operation));
              requests++;
              if (problem) failures.push({ route, label: fuzzCase.label, auth: auth.name, problem });
            }
          }
        }
      }
      // One line per failure, so a red run says exactly which input broke which route.
      expect(failures.map((f) => `${f.route} [${f.auth}] ${f.label}: ${f.problem}`)).toEqual([]);
      expect(requests).toBeGreaterThan(only ? 0 : 1000);
    },
  );

  // Issue 34 row 9: every path of the app's route table (hidden routes too) refuses each method it does not take,
  // standard or not, with 405 and an `Allow` of exactly the methods registered for it (HEAD with GET; the CORS
  // preflight route `OPTIONS *` aside), before the body is read: a malformed one comes along.
  it('answers every method a path does not take with 405 and a true Allow, before reading the body', async () => {
    // `/brands/:brand` and `/brands/:id` are one path: parameters are grouped by position, not by name.
    const byPath = new Map<string, { url: string; methods: Set<string> }>();
    for (const route of routeTable(t.app)) {
      if (route.url.includes('*')) continue;
      const shape = route.url.replace(/\/$/, '').replace(/:\w+/g, ':');
      const entry = byPath.get(shape) ?? { url: route.url, methods: new Set<string>() };
      entry.methods.add(route.method);
      if (route.method === 'GET') entry.methods.add('HEAD');
      byPath.set(shape, entry);
    }
    const failures: string[] = [];
    let tried = 0;
    for (const { url: pattern, methods } of byPath.values()) {
      const allow = [...methods].sort().join(', ');
      const url = pattern.replace(/:(\w+)/g, (_, name: string) => fixtures[name] ?? fixtures.uuid!);
      for (const method of OTHER_METHODS.filter((m) => !methods.has(m))) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { ...authVariants[1]!.headers, 'content-type': 'application/json' },
          payload: '{"a":',
        });
        tried++;
        const got = String(res.headers.allow ?? '')
          .split(/,\s*/)
          .sort()
          .join(', ');
        const code = method === 'HEAD' ? 'MethodNotAllowed' : res.json<{ code?: string }>().code; // HEAD: no body
        if (res.statusCode !== 405 || got !== allow || code !== 'MethodNotAllowed')
          failures.push(`${method} ${pattern}: ${res.statusCode} Allow "${got}" (expected 405 Allow "${allow}")`);
      }
    }
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(300);
  });

  // Issue 34 row 16: a route whose body is an object refuses a JSON `null` (or another non-object) with a 4xx in the
  // error shape, and changes nothing; no route reads it as "no body".
  it('refuses a null or non-object JSON body on every route that takes an object body', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const failures: string[] = [];
    let tried = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const schema = item[method]?.requestBody?.content['application/json']?.schema;
        if (!schema || !takesObject(schema)) continue;
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => fixtures[name] ?? fixtures.uuid!);
        for (const body of ['null', '[]', '42', '"text"']) {
          for (const auth of authVariants) {
            const before = await fingerprint();
            const res = await t.app.inject({
              method: method.toUpperCase() as 'POST',
              url,
              headers: { ...auth.headers, 'content-type': 'application/json' },
              payload: body,
            });
            tried++;
            const changed = (await fingerprint()) !== before;
            if (res.statusCode < 400 || res.statusCode >= 500 || changed)
              failures.push(
                `${method.toUpperCase()} ${path} [${auth.name}] body ${body}: ${res.statusCode}${changed ? ', changed the database' : ''}`,
              );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(100);
  });

  /** `streaming`: the operation answers with an endless event stream (GET /notifications/stream), read only up to its head. */
  async function send(
    method: string,
    path: string,
    fuzzCase: FuzzCase,
    authHeaders: Record<string, string>,
    before: string,
    streaming: boolean,
  ): Promise<string | null> {
    const headers: Record<string, string> = { ...authHeaders, ...fuzzCase.headers };
    if (fuzzCase.contentType) headers['content-type'] = fuzzCase.contentType;
    const options = {
      method: method.toUpperCase() as 'GET',
      url: fuzzCase.url,
      headers,
      ...(fuzzCase.body !== undefined ? { payload: fuzzCase.body } : {}),
    };
    const res = streaming ? await injectSettled(t.app, options) : await t.app.inject(options);
    if (res.statusCode >= 500) return `answered ${res.statusCode}: ${res.body.slice(0, 200)}`;
    if (fuzzCase.forbidStatus === res.statusCode) return `answered ${res.statusCode}: ${res.body.slice(0, 200)}`;
    // Who may call the route, and how often, is decided before its body is read: a 401, 403 or 429 may come first.
    if (fuzzCase.expectStatus !== undefined && ![fuzzCase.expectStatus, 401, 403, 429].includes(res.statusCode))
      return `answered ${res.statusCode} instead of ${fuzzCase.expectStatus}: ${res.body.slice(0, 200)}`;
    if (res.statusCode < 400) return null;
    if ((await fingerprint()) !== before) return `refused with ${res.statusCode} but changed the database`;
    if (String(res.headers['content-type'] ?? '').startsWith('text/html')) return null; // the authorization pages answer with pages
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(res.body) as Record<string, unknown>;
    } catch {
      return `answered ${res.statusCode} with a body that is not JSON: ${res.body.slice(0, 120)}`;
    }
    if (body.http !== res.statusCode) return `body.http ${String(body.http)} differs from the status ${res.statusCode}`;
    if (typeof body.code !== 'string' || !(body.code in ERROR_CATALOGUE))
      return `code ${String(body.code)} is not in the catalogue`;
    if (typeof body.message !== 'string' || body.message === '') return 'no message';
    if (OAUTH_FORM_ROUTES.has(path) && (typeof body.error !== 'string' || typeof body.error_description !== 'string'))
      return 'no RFC 6749 error/error_description';
    return null;
  }
});
