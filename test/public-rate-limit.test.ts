// The per-IP limit of public routes (decisions §19): RateLimit-* headers, 429 with Retry-After past the limit,
// a fresh window after it ends, and separate counts per client address.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app.js';
import { createBrand } from './helpers/factories.js';

describe('public route rate limit', () => {
  const t = useTestApp({ config: { publicRateLimit: 3, publicRateWindowSeconds: 60 } });
  let brand: string;
  beforeAll(async () => {
    brand = (await createBrand(t.deps)).id;
  });
  const profile = (ip = '203.0.113.7') => t.app.inject({ method: 'GET', url: `/brands/${brand}`, remoteAddress: ip });

  it('counts down in RateLimit-Remaining, refuses the request past the limit, and opens again with the next window', async () => {
    const answers = [await profile(), await profile(), await profile()];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((r) => r.headers['ratelimit-remaining'])).toEqual(['2', '1', '0']);
    expect(answers[0]!.headers['ratelimit-limit']).toBe('3');
    expect(Number(answers[0]!.headers['ratelimit-reset'])).toBeGreaterThan(0);

    const refused = await profile();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ http: 429, code: 'TooManyRequests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);

    expect((await profile('198.51.100.9')).statusCode).toBe(200); // another address has its own count
    t.clock.advance(61);
    expect((await profile()).statusCode).toBe(200);
  });
});

/** Three requests through a proxy at 10.0.0.5, each with another address its client put in X-Forwarded-For. */
const spoofed = (t: ReturnType<typeof useTestApp>, brand: string) =>
  Promise.all(
    ['1.1.1.1', '2.2.2.2', '3.3.3.3'].map((forged) =>
      t.app.inject({
        method: 'GET',
        url: `/brands/${brand}`,
        remoteAddress: '10.0.0.5',
        // The client sent its forged address; the proxy appended the address it saw the client at.
        headers: { 'x-forwarded-for': `${forged}, 203.0.113.7` },
      }),
    ),
  );

describe.each([
  ['a number of proxies', { trustProxy: 1 }],
  ['the proxies’ addresses', { trustProxy: ['10.0.0.0/8'] }],
])('the public limit behind a proxy that appends to X-Forwarded-For, TRUST_PROXY as %s', (_name, trust) => {
  const t = useTestApp({ config: { publicRateLimit: 2, publicRateWindowSeconds: 60, ...trust } });

  it('counts the address the proxy saw, whatever the client forged in front of it', async () => {
    const brand = (await createBrand(t.deps)).id;
    expect((await spoofed(t, brand)).map((r) => r.statusCode).sort()).toEqual([200, 200, 429]);
  });
});

describe('the public limit with TRUST_PROXY=true', () => {
  const t = useTestApp({ config: { publicRateLimit: 2, publicRateWindowSeconds: 60, trustProxy: true } });

  it('believes the leftmost address: safe only behind a proxy that overwrites the header', async () => {
    const brand = (await createBrand(t.deps)).id;
    expect((await spoofed(t, brand)).map((r) => r.statusCode)).toEqual([200, 200, 200]);
  });
});
