// The contact's click in Chromium (docs/public-pages.md): an Instant alert is delivered as the server delivers it,
// and the contact follows the links of the .eml the transport wrote — the listing page, the results page, the
// preferences page — and changes a frequency there. Nothing wider than a 360-px screen, no serious or critical
// accessibility violation; screenshots at 360 and 1280 px land in test-artifacts/browser.
import { readFileSync } from 'node:fs';
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emlPath } from '../../src/mail/transport.js';
import { crmUser } from '../helpers/contacts.js';
import { runQueuedJobs } from '../helpers/jobs.js';
import { clientHeaders, sampleListing } from '../helpers/listings.js';
import { expectNoSeriousA11yViolations } from './axe.js';
import { launchTestChromium, SCREENSHOTS } from './chromium.js';
import { startGable, type RunningGable } from './gable-server.js';
import { AROUND_DALLAS } from '../helpers/saved-searches.js';

describe('alert pages in Chromium, from a delivered alert', () => {
  let gable: RunningGable;
  let browser: Browser;
  let contact: string;
  const links: Record<'listing' | 'seeAll' | 'preferences', string> = { listing: '', seeAll: '', preferences: '' };
  const started: { close(): Promise<unknown> }[] = [];

  beforeAll(async () => {
    gable = await startGable();
    started.push(gable);
    const owner = await crmUser(gable.deps);
    const created = await gable.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: owner.headers,
      payload: { first_name: 'Ada', emails: ['ada@example.com'] },
    });
    contact = created.json().data.id as string;
    const saved = await gable.app.inject({
      method: 'POST',
      url: `/brands/${owner.brand}/saved-searches`,
      headers: owner.bare,
      payload: { title: 'Dallas bungalows', points: AROUND_DALLAS, contacts: [contact], frequency: 'Instant' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const photos = [1, 2, 3].map((n) => `${gable.url}/demo/photos/house-${n}.svg`);
    const ingest = await gable.app.inject({
      method: 'POST',
      url: '/mls/NTREIS/listings',
      headers: await clientHeaders(gable.deps),
      payload: [sampleListing('AL-1', { gallery_image_urls: photos })],
    });
    expect(ingest.statusCode, ingest.body).toBe(200);
    await runQueuedJobs(gable.deps, ['saved-searches.match', 'saved-searches.deliver', 'mail.send']);
    const { id } = await gable.deps.db
      .selectFrom('mail_messages')
      .select('id')
      .where('contact', '=', contact)
      .executeTakeFirstOrThrow();
    const mail = await simpleParser(readFileSync(emlPath(gable.deps.config, id)));
    const html = mail.html as string;
    const href = (text: RegExp) => {
      const found = [...html.matchAll(/<a href="([^"]+)"[^>]*>([^<]*)</g)].find((m) => text.test(m[2]!.trim()));
      return found![1]!.replaceAll('&amp;', '&');
    };
    links.listing = href(/^4521 Maple Ave/);
    links.seeAll = href(/^See all/);
    links.preferences = href(/^Alert preferences$/);
    browser = await launchTestChromium();
    started.push(browser);
  });
  afterAll(async () => {
    for (const running of started.reverse()) await running.close();
  });

  const fits = async (page: Page) => {
    const sizes = (await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
    )) as { scroll: number; client: number };
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
  };

  for (const width of [360, 1280]) {
    it(`${width} px: the email's links open the listing, results and preferences pages`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      try {
        const page = await context.newPage();
        expect((await page.goto(links.seeAll))?.status()).toBe(200);
        await page.getByRole('heading', { level: 1, name: 'Dallas bungalows' }).waitFor();
        await fits(page);
        await page.screenshot({ path: `${SCREENSHOTS}/alert-results-${width}.png`, fullPage: true });
        await expectNoSeriousA11yViolations(page);

        // The card's link is the email's listing link: the listing page in the search's brand.
        await page
          .getByRole('link', { name: /4521 Maple Ave/ })
          .first()
          .click();
        await page.getByRole('heading', { level: 1, name: '4521 Maple Ave' }).waitFor();
        expect(page.url()).toBe(links.listing);

        expect((await page.goto(links.preferences))?.status()).toBe(200);
        await page.getByRole('heading', { level: 1, name: 'Alert preferences' }).waitFor();
        await fits(page);
        await page.screenshot({ path: `${SCREENSHOTS}/alert-preferences-${width}.png`, fullPage: true });
        await expectNoSeriousA11yViolations(page);
      } finally {
        await context.close();
      }
    });
  }

  it('the contact changes a frequency: Saved, and the link is Daily', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(links.preferences);
      await page.getByLabel('Dallas bungalows').selectOption('Daily');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved. Your next alert follows these choices.').waitFor();
      const link = await gable.deps.db
        .selectFrom('saved_search_contacts')
        .select('frequency')
        .where('contact', '=', contact)
        .executeTakeFirstOrThrow();
      expect(link.frequency).toBe('Daily');
    } finally {
      await context.close();
    }
  });
});
