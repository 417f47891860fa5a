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
