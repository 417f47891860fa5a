// The public listing page (docs/public-pages.md) in Chromium: readable on a 360-px phone (nothing wider than the
// screen) and on a desktop, photos served by the app itself (the demo photos) so the page loads with no network.
// Screenshots land in test-artifacts/browser for a person to look at.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHeaders, sampleListing } from '../helpers/listings.js';
import { launchTestChromium, SCREENSHOTS } from './chromium.js';
import { startGable, type RunningGable } from './gable-server.js';

describe('public listing page in Chromium', () => {
  let gable: RunningGable;
  let browser: Browser;
  let pageUrl: string;
  const started: { close(): Promise<unknown> }[] = [];

  beforeAll(async () => {
    gable = await startGable();
    started.push(gable);
    const photos = [1, 2, 3].map((n) => `${gable.url}/demo/photos/house-${n}.svg`);
    const listing = sampleListing('B-1', {
      gallery_image_urls: photos,
      list_office_name: 'Demo Realty Downtown',
      // A long word must wrap rather than widen the page.
      content: `Charming bungalow. ${'Supercalifragilisticexpialidocious'.repeat(6)} ${'A renovated kitchen. '.repeat(30)}`,
      open_houses: [{ start_time: '2099-11-28T16:00:00Z', end_time: '2099-11-28T18:00:00Z', description: 'Tour' }],
    });
    const res = await gable.app.inject({
      method: 'POST',
      url: '/mls/NTREIS/listings',
      headers: await clientHeaders(gable.deps),
      payload: [listing],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = await gable.deps.db
      .selectFrom('listings')
      .select('id')
      .where('mls_number', '=', 'B-1')
      .executeTakeFirstOrThrow();
    pageUrl = `${gable.url}/l/${id}`;
    browser = await launchTestChromium();
    started.push(browser);
  });
  afterAll(async () => {
    for (const running of started.reverse()) await running.close();
  });

  for (const width of [360, 1280]) {
    it(`fits a ${width}-px-wide screen without horizontal scrolling`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      try {
        const page = await context.newPage();
        const refused: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
        });
        const response = await page.goto(pageUrl);
        expect(response?.status()).toBe(200);
        await page.getByRole('heading', { level: 1, name: '4521 Maple Ave' }).waitFor();
        // A string: the test project has no DOM types (the expression runs in the page).
        const sizes = (await page.evaluate(`({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
          firstPhoto: document.querySelector('.gallery img')?.naturalWidth ?? 0,
        })`)) as { scroll: number; client: number; firstPhoto: number };
        expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
        expect(sizes.firstPhoto).toBeGreaterThan(0); // the demo photo loaded under the page's CSP
        expect(refused).toEqual([]);
        await page.screenshot({ path: `${SCREENSHOTS}/listing-page-${width}.png`, fullPage: true });
      } finally {
        await context.close();
      }
    });
  }
});
