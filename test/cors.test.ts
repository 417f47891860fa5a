// CORS for existing clients' browser pages (decisions §19): configured origins and https on brand host names,
// preflights without a token, the headers those clients send and read; other origins get no CORS headers.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app.js';
import { createBrand } from './helpers/factories.js';

describe('CORS', () => {
  const t = useTestApp({ config: { corsOrigins: ['https://wp.example.com'] } });
  let brand: string;
  beforeAll(async () => {
    brand = (await createBrand(t.deps)).id;
    await t.deps.db.insertInto('brand_hostnames').values({ hostname: 'homes.acme.example', brand }).execute();
  });

  const preflight = (origin: string, url = '/valerts') =>
    t.app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-rechat-brand',
      },
    });

  it('answers the preflight of a configured origin without a token, with the headers clients send', async () => {
    const res = await preflight('https://wp.example.com');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://wp.example.com');
    expect(String(res.headers['access-control-allow-headers'])).toContain('X-Rechat-Brand');
    expect(String(res.headers['access-control-allow-methods'])).toContain('PATCH');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets the actual request read the headers clients need (request id, rate limit, deprecation)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/brands/${brand}`,
      headers: { origin: 'https://wp.example.com' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://wp.example.com');
    const exposed = String(res.headers['access-control-expose-headers']);
    for (const header of ['X-Request-Id', 'RateLimit-Remaining', 'Deprecation', 'Link', 'Retry-After'])
      expect(exposed).toContain(header);
    // a refusal too, or the page could not read why it was refused
    const refused = await t.app.inject({
      method: 'GET',
      url: '/users/self',
      headers: { origin: 'https://wp.example.com' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('https://wp.example.com');
  });

  it('allows https on a brand host name (white label), not http, not other origins: no CORS headers, no error', async () => {
    expect((await preflight('https://homes.acme.example')).headers['access-control-allow-origin']).toBe(
      'https://homes.acme.example',
    );
    for (const origin of [
      'http://homes.acme.example',
      'https://evil.example',
      'https://wp.example.com.evil.example',
      'null',
      'not a url',
    ]) {
      const res = await preflight(origin);
      expect(res.statusCode, origin).toBeLessThan(500);
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      const actual = await t.app.inject({ method: 'GET', url: `/brands/${brand}`, headers: { origin } });
      expect(actual.statusCode).toBe(200);
      expect(actual.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });
});
