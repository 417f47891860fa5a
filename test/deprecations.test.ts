// Every deprecated endpoint (spec §9, decisions §13) keeps working and says so: `Deprecation: @<epoch>` of its
// published date and `Link: <successor>; rel="successor-version"` (no `Sunset`: spec §9 publishes no sunset
// date), its use is counted per OAuth client in /metrics, and docs/deprecations.md lists it with its migration.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app.js';
import { addMembership, bearer, createBrand, createClient, createUser, tokenFor } from './helpers/factories.js';

const t = useTestApp();
let headers: Record<string, string>;
let clientId: string;

beforeAll(async () => {
  const brand = await createBrand(t.deps);
  const user = await createUser(t.deps);
  await addMembership(t.deps, user.id, brand.id);
  const client = await createClient(t.deps, 'first_party', { name: 'Deprecation probe' });
  clientId = client.client_id;
  headers = { ...bearer(await tokenFor(t.deps, user.id, { client: client.id })), 'x-rechat-brand': brand.id };
});

const epoch = (date: string) => `@${Date.parse(`${date}T00:00:00Z`) / 1000}`;
const ROUTES = [
  {
    method: 'GET',
    url: '/listings/search?q=lake',
    route: 'GET /listings/search',
    date: '2026-01-01',
    successor: '/brands/:brand/listings',
  },
  {
    method: 'POST',
    url: '/valerts',
    route: 'POST /valerts',
    payload: { agents: ['probe'] },
    date: '2028-01-01',
    successor: '/brands/:brand/listings',
  },
  {
    method: 'POST',
    url: '/valerts/count',
    route: 'POST /valerts/count',
    payload: { agents: ['probe'] },
    date: '2028-01-01',
    successor: '/brands/:brand/listings',
  },
  { method: 'GET', url: '/deals', route: 'GET /deals', date: '2026-01-01', successor: '/deals/filter' },
] as const;

describe('deprecated endpoints', () => {
  it.each(ROUTES)('$route answers with its Deprecation date and successor Link', async (r) => {
    const res = await t.app.inject({
      method: r.method,
      url: r.url,
      headers,
      ...('payload' in r ? { payload: r.payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.deprecation).toBe(epoch(r.date));
    expect(res.headers.link).toBe(`<${r.successor}>; rel="successor-version"`);
    expect(res.headers.sunset).toBeUndefined();
  });

  it('counts each call per route and OAuth client in /metrics', async () => {
    const metrics = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const count = (text: string, route: string) => {
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('gable_deprecated_requests_total{') &&
            l.includes(`route="${route}"`) &&
            l.includes(`client="${clientId}"`),
        );
      return line ? Number(line.split(' ').at(-1)) : 0;
    };
    const before = await metrics();
    await t.app.inject({ method: 'GET', url: '/deals', headers });
    await t.app.inject({ method: 'GET', url: '/deals', headers });
    const after = await metrics();
    expect(count(after, 'GET /deals') - count(before, 'GET /deals')).toBe(2);
    expect(count(after, 'POST /valerts')).toBe(count(before, 'POST /valerts'));
  });

  it('marks them deprecated in OpenAPI, and docs/deprecations.md lists every deprecated operation', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { deprecated?: boolean }>>;
    };
    const deprecated = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.deprecated)
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    for (const r of ROUTES) expect(deprecated).toContain(r.route);
    const page = readFileSync(new URL('../docs/deprecations.md', import.meta.url), 'utf8');
    for (const route of deprecated) expect(page, route).toContain(`\`${route}\``);
  });
});
