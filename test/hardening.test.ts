// Regression tests of issue 8's table: inputs that reached a 500 or a wrong state. Rows 5 (lock file), 6 (resumable
// first start) and 9 (lost refresh response) are tested beside their code: src/db/lock.test.ts, src/bootstrap.test.ts,
// src/modules/auth/refresh-grant.test.ts.
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app.js';
import { addMembership, bearer, createBrand, createClient, createUser, tokenFor } from './helpers/factories.js';
import { passwordLogin } from './helpers/oauth.js';
import { clientHeaders, sampleListing } from './helpers/listings.js';
import { authorizeUrl, createWorld, InjectBrowser, PARTNER_REDIRECT } from './helpers/web.js';

describe('issue 8 regressions', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let feed: Record<string, string>;
  let user: Record<string, string>;
  let brand: string;
  beforeAll(async () => {
    feed = await clientHeaders(t.deps);
    const b = await createBrand(t.deps);
    const u = await createUser(t.deps);
    await addMembership(t.deps, u.id, b.id);
    brand = b.id;
    user = { ...bearer(await tokenFor(t.deps, u.id)), 'x-rechat-brand': b.id };
  });

  const ingest = (records: unknown[]) =>
    t.app.inject({ method: 'POST', url: '/mls/NTREIS/listings', headers: feed, payload: records as object });
  const idOf = async (mlsNumber: string) =>
    (await t.deps.db.selectFrom('listings').select('id').where('mls_number', '=', mlsNumber).executeTakeFirst())?.id;

  it('row 1: a feature list under a key outside the pattern is refused at ingest, and reads keep working', async () => {
    const res = await ingest([
      sampleListing('R1-bad', { property: { features: { Bad: 1 } } }),
      sampleListing('R1-bad2', { property: { features: { 'Not OK': ['x'] } } }),
      sampleListing('R1-good'),
    ]);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.created).toBe(1);
    expect(data.failed.map((f: { index: number; errors: object }) => [f.index, Object.keys(f.errors)])).toEqual([
      [0, ['property.features.Bad']],
      [1, ['property.features.Not OK']],
    ]);
    expect(await idOf('R1-bad')).toBeUndefined();
    const read = await t.app.inject({ url: `/listings/${await idOf('R1-good')}`, headers: feed });
    expect(read.statusCode).toBe(200);
    expect(read.json().data.property.features).toEqual({ interior_features: ['Fireplace'] });
  });

  it('row 2: a start of 2^63, 1e20 or 1e400 is a 400 on every listing and boundary search, not a 500', async () => {
    for (const start of ['9223372036854775808', '1e20', '1e400', '2147483648']) {
      const responses = await Promise.all([
        t.app.inject({ url: `/boundaries/search?q=a&start=${start}`, headers: user }),
        t.app.inject({ url: `/listings/search?q=house&start=${start}`, headers: user }),
        t.app.inject({ method: 'POST', url: `/valerts?start=${start}`, headers: user, payload: { agents: ['A'] } }),
        t.app.inject({
          method: 'POST',
          url: `/brands/${brand}/listings`,
          headers: { ...user, 'content-type': 'application/json' },
          payload: `{"agents": ["A"], "start": ${start}}`,
        }),
        t.app.inject({
          method: 'POST',
          url: '/valerts/count',
          headers: { ...user, 'content-type': 'application/json' },
          payload: `{"agents": ["A"], "start": ${start}}`,
        }),
      ]);
      for (const res of responses) {
        expect(res.statusCode, `start=${start}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ http: 400, code: 'Validation', attributes: { start: expect.any(Array) } });
      }
    }
    // the largest start allowed still answers (an empty page)
    const last = await t.app.inject({ url: '/boundaries/search?q=a&start=2147483647', headers: user });
    expect(last.json()).toMatchObject({ code: 'OK', data: [] });
  });

  it('row 3: a lone surrogate, a NUL or a year-0/10000 date fails its record, not its batch', async () => {
    const payload = `[${[
      JSON.stringify(sampleListing('R3-good-1')),
      JSON.stringify(sampleListing('R3-surrogate', { content: '__S__' })).replace('__S__', 'bad \\ud800 text'),
      JSON.stringify(sampleListing('R3-key', { property: { features: { interior_features: ['__S__'] } } })).replace(
        '__S__',
        '\\udfff',
      ),
      JSON.stringify(sampleListing('R3-nul', { property: { address: { city: 'Dal\u0000las' } } })),
      JSON.stringify(sampleListing('R3-year0', { list_date: '0000-01-01' })),
      JSON.stringify(sampleListing('R3-year10000', { close_date: '10000-01-01T00:00:00Z' })),
      JSON.stringify(
        sampleListing('R3-open-house', {
          open_houses: [{ start_time: '0000-06-01T10:00:00Z', end_time: '0000-06-01T12:00:00Z' }],
        }),
      ),
      JSON.stringify(sampleListing('R3-good-2')),
    ].join(',')}]`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/mls/NTREIS/listings',
      headers: { ...feed, 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data.created).toBe(2);
    expect(data.failed.map((f: { index: number; errors: object }) => [f.index, Object.keys(f.errors)[0]])).toEqual([
      [1, 'content'],
      [2, 'property.features.interior_features.0'],
      [3, 'property.address.city'],
      [4, 'list_date'],
      [5, 'close_date'],
      [6, 'open_houses.0.start_time'],
    ]);
    expect(await idOf('R3-good-1')).toBeDefined();
    expect(await idOf('R3-good-2')).toBeDefined();
  });

  it('row 3, every other route: a lone surrogate in a JSON body is a 400 naming the field', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/users/self',
      headers: { ...user, 'content-type': 'application/json' },
      payload: '{"bio": "x\\ud800"}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'Validation',
      attributes: { bio: [expect.stringContaining('surrogate')] },
    });
  });

  it('row 4: a username or sign-in email of 4,000 bytes is refused like any wrong login, not a 500', async () => {
    const client = await createClient(t.deps);
    // Random text: PostgreSQL compresses a repetitive key below the btree limit, so 'aaa…' would not show the bug.
    const huge = `${randomBytes(3000).toString('base64url')}@example.com`;
    const grant = await passwordLogin(t.app, client, huge, 'whatever-password');
    expect(grant.statusCode).toBe(400);
    expect(grant.json()).toMatchObject({ error: 'invalid_grant' });

    const world = await createWorld(t.deps);
    const browser = new InjectBrowser(t.app);
    const start = await browser.get(
      authorizeUrl({ client_id: world.partner.client_id, redirect_uri: PARTNER_REDIRECT, response_type: 'code' }),
    );
    const signIn = await browser.submit(start, '/oauth2/auth/sign-in', { email: huge, password: 'whatever-password' });
    expect(signIn.statusCode).toBeLessThan(500);
    expect(signIn.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('row 7: a malformed percent-escape or an over-long segment in the path answers in the error shape', async () => {
    const bad = await t.app.inject({ url: '/listings/%E0%A4%A', headers: user });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ http: 400, code: 'BadRequest' });
    expect(bad.headers['x-request-id']).toBeTruthy();
    const long = await t.app.inject({ url: `/listings/${'a'.repeat(500)}`, headers: user });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ http: 414, code: 'URITooLong' });
  });

  it('row 7: headers over 16 KiB (431) answer in the error shape on a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/users/self', headers: { 'x-big': 'b'.repeat(20_000) } },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({
      http: 431,
      code: 'RequestHeaderFieldsTooLarge',
      message: expect.any(String),
    });
  });

  it('row 8: a path that exists with other methods answers 405 with Allow, parameters or not', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/listings/7d3b7a52-54f2-4a6a-9a0e-2a1c9f0d1a11',
      headers: user,
    });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD');
    expect(put.json()).toMatchObject({ http: 405, code: 'MethodNotAllowed' });
    const del = await t.app.inject({ method: 'DELETE', url: `/brands/${brand}/listings`, headers: user });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe('POST');
    expect((await t.app.inject({ method: 'PUT', url: '/no/such/path', headers: user })).statusCode).toBe(404);
  });
});
