// The renderer's font cache: one fetch per file for every render, failures remembered for a minute, bounded.
import { describe, expect, it } from 'vitest';
import { FontCache, type FetchFont } from './font-cache.js';
import type { OwnResponse } from './own-response.js';

const CSS: OwnResponse = {
  status: 200,
  contentType: 'text/css',
  body: Buffer.from('@font-face { font-family: Inter }'),
};

function counting(answer: (url: string) => Promise<OwnResponse>) {
  const asked: string[] = [];
  const fetchFont: FetchFont = (url) => {
    asked.push(url);
    return answer(url);
  };
  return { asked, fetchFont };
}

describe('FontCache', () => {
  it('fetches a file once for renders asking at the same time and after, and keeps it for a day', async () => {
    let now = 0;
    const { asked, fetchFont } = counting(async () => CSS);
    const cache = new FontCache(fetchFont, () => now);
    const url = 'https://fonts.googleapis.com/css2?family=Inter';
    const [a, b] = await Promise.all([cache.get(url, {}), cache.get(url, {})]);
    expect(a).toEqual(CSS);
    expect(b).toEqual(CSS);
    now += 23 * 60 * 60 * 1000;
    expect(await cache.get(url, {})).toEqual(CSS);
    expect(asked).toHaveLength(1);
    now += 2 * 60 * 60 * 1000;
    await cache.get(url, {});
    expect(asked).toHaveLength(2);
  });

  it('answers null for a failure or a non-200 answer and asks again only after a minute', async () => {
    let now = 0;
    const { asked, fetchFont } = counting(async (url) => {
      if (url.endsWith('down')) throw new Error('refused_address');
      return { status: 404, contentType: 'text/plain', body: Buffer.from('') };
    });
    const cache = new FontCache(fetchFont, () => now);
    expect(await cache.get('https://fonts.gstatic.com/down', {})).toBeNull();
    expect(await cache.get('https://fonts.gstatic.com/missing', {})).toBeNull();
    now += 59 * 1000;
    expect(await cache.get('https://fonts.gstatic.com/down', {})).toBeNull();
    expect(asked).toHaveLength(2);
    now += 2 * 1000;
    expect(await cache.get('https://fonts.gstatic.com/down', {})).toBeNull();
    expect(asked).toHaveLength(3);
  });

  it('forgets the oldest files beyond 200', async () => {
    const { asked, fetchFont } = counting(async () => CSS);
    const cache = new FontCache(fetchFont);
    for (let i = 0; i <= 200; i++) await cache.get(`https://fonts.gstatic.com/${i}`, {});
    await cache.get('https://fonts.gstatic.com/200', {});
    expect(asked).toHaveLength(201);
    await cache.get('https://fonts.gstatic.com/0', {});
    expect(asked).toHaveLength(202);
  });
});
