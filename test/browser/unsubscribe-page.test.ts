// The campaign unsubscribe pages (docs/public-pages.md "Unsubscribe pages") in Chromium, from the link of a real
// campaign message: the question, then the confirmation after pressing the button, then "everything"; each fits a
// 360-px phone and a desktop, passes axe-core (no serious or critical violation), and is screenshotted to
// test-artifacts/browser for a person to look at.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContact, marketer, postCampaign, to } from '../helpers/emails.js';
import { runQueuedJobs } from '../helpers/jobs.js';
import { linkToken } from '../../src/mail/tracking.js';
import { expectNoSeriousA11yViolations } from './axe.js';
import { launchTestChromium, SCREENSHOTS } from './chromium.js';
import { startGable, type RunningGable } from './gable-server.js';

describe('campaign unsubscribe pages in Chromium', () => {
  let gable: RunningGable;
  let browser: Browser;
  const started: { close(): Promise<unknown> }[] = [];

  /** The List-Unsubscribe link of a campaign just sent to `address` (a real ledger row, signed as mail signs it). */
  async function linkFor(address: string): Promise<string> {
    const m = await marketer(gable.deps);
    await gable.deps.db
      .updateTable('brands')
      .set({ name: 'Maple & Co Realty', marketing_palette: JSON.stringify({ 'button-bg-color': '#7a1f3d' }) })
      .where('id', '=', m.brand)
      .execute();
    await createContact(gable.app, m.headers, { first_name: 'Dora', email: address });
    const created = await postCampaign(gable.app, m.headers, {
      subject: 'Spring market',
      html: '<p>Hi</p>',
      individual: true,
      to: [to(address)],
    });
    expect(created.statusCode, created.body).toBe(200);
    await runQueuedJobs(gable.deps, ['emails.execute', 'mail.send']);
    const row = await gable.deps.db
      .selectFrom('mail_messages')
      .select('id')
      .where('campaign', '=', created.json().data.id)
      .executeTakeFirstOrThrow();
    return `${gable.url}/mail/unsubscribe/${linkToken(gable.deps.config.secretKey, 'unsubscribe', row.id)}`;
  }

  async function check(page: Page, name: string, width: number) {
    const sizes = (await page.evaluate(
      `({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })`,
    )) as { scroll: number; client: number };
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
    await page.screenshot({ path: `${SCREENSHOTS}/unsubscribe-${name}-${width}.png`, fullPage: true });
    await expectNoSeriousA11yViolations(page);
  }

  beforeAll(async () => {
    gable = await startGable();
    started.push(gable);
    browser = await launchTestChromium();
    started.push(browser);
  });
  afterAll(async () => {
    for (const running of started.reverse()) await running.close();
  });

  for (const width of [360, 1280]) {
    it(`asks, confirms and unsubscribes from everything at ${width} px`, async () => {
      const address = `dora${width}@example.com`;
      const link = await linkFor(address);
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      try {
        const page = await context.newPage();
        expect((await page.goto(link))?.status()).toBe(200);
        await page.getByRole('heading', { level: 1, name: 'Unsubscribe?' }).waitFor();
        await check(page, 'ask', width);
        await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'Unsubscribed' }).waitFor();
        await check(page, 'done', width);
        await page.getByRole('button', { name: 'Unsubscribe from everything' }).click();
        await page.getByRole('heading', { level: 1, name: 'Unsubscribed from everything' }).waitFor();
        expect(page.url()).toBe(`${link}/everything`);
        await check(page, 'everything', width);
      } finally {
        await context.close();
      }
    });
  }
});
