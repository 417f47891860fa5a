// The "Ask about this home" form (docs/public-pages.md) in Chromium, without any script of ours: a visitor reads the
// listing page, fills the form and sends it; the lead arrives as a contact of the office; the thanks page follows
// (Post/Redirect/Get). A wrong phone number brings the form back with the error. Each page passes the axe-core check
// (no serious or critical violation); screenshots at 360 and 1280 px land in test-artifacts/browser.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadFormWorld, type LeadFormWorld } from '../helpers/lead-form.js';
import { expectNoSeriousA11yViolations } from './axe.js';
import { launchTestChromium, SCREENSHOTS } from './chromium.js';
import { startGable, type RunningGable } from './gable-server.js';

describe('"Ask about this home" in Chromium', () => {
  let gable: RunningGable;
  let browser: Browser;
  let world: LeadFormWorld;
  const started: { close(): Promise<unknown> }[] = [];

  beforeAll(async () => {
    gable = await startGable();
    started.push(gable);
    world = await leadFormWorld(gable.deps, gable.app, {
      gallery_image_urls: [1, 2].map((n) => `${gable.url}/demo/photos/house-${n}.svg`),
    });
    browser = await launchTestChromium();
    started.push(browser);
  });
  afterAll(async () => {
    for (const running of started.reverse()) await running.close();
  });

  /** The contact of the office with this email, through the API as the agent sees it. */
  const contactWithEmail = async (email: string) => {
    const res = await gable.app.inject({
      method: 'GET',
      url: `/contacts?q=${encodeURIComponent(email)}`,
      headers: world.dana.headers,
    });
    expect(res.statusCode).toBe(200);
    return (res.json().data as { id: string; emails: string[]; first_name: string; brand: string }[]).find((c) =>
      c.emails.includes(email),
    );
  };

  const fill = async (page: Page, fields: { name: string; email: string; phone: string }) => {
    await page.getByLabel('Name').fill(fields.name);
    await page.getByLabel('Email').fill(fields.email);
    await page.getByLabel('Phone').fill(fields.phone);
  };

  for (const width of [360, 1280]) {
    it(`sends a question from a ${width}-px screen and lands on the thanks page`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      try {
        const page = await context.newPage();
        const refused: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
        });
        expect((await page.goto(`${gable.url}/l/${world.listing}`))?.status()).toBe(200);
        const form = page.locator('section.ask');
        await form.getByRole('heading', { name: 'Ask about this home' }).waitFor();
        await expect(page.getByLabel('Message').inputValue()).resolves.toBe(
          'I’d like to know more about 4521 Maple Ave, Dallas, TX 75219.',
        );
        await expectNoSeriousA11yViolations(page);

        const email = `visitor-${width}@example.com`;
        // First a phone number the server refuses (the browser does not check tel fields): the form comes back.
        await fill(page, { name: 'Vera Visitor', email, phone: 'call me' });
        gable.clock.advance(5); // a person takes a few seconds over the form (the minimum fill time)
        await Promise.all([
          page.waitForURL(`**/l/${world.listing}/ask`),
          form.getByRole('button', { name: 'Send' }).click(),
        ]);
        await page.getByText('Enter a phone number like').waitFor();
        await expect(page.getByLabel('Email').inputValue()).resolves.toBe(email);
        await expectNoSeriousA11yViolations(page);
        await page.screenshot({ path: `${SCREENSHOTS}/lead-form-error-${width}.png`, fullPage: true });

        // Its own number per width: the same number would join the other run's contact (the lead dedupe).
        await page.getByLabel('Phone').fill(`(214) 555-${String(width).padStart(4, '0')}`);
        await page.locator('section.ask').screenshot({ path: `${SCREENSHOTS}/lead-form-${width}.png` });
        await Promise.all([page.waitForURL('**/ask/thanks?b=*'), page.getByRole('button', { name: 'Send' }).click()]);
        await page.getByRole('heading', { level: 1, name: 'Thanks, Dana Reyes will be in touch' }).waitFor();
        await expectNoSeriousA11yViolations(page);
        await page.screenshot({ path: `${SCREENSHOTS}/lead-form-thanks-${width}.png`, fullPage: true });
        expect(refused).toEqual([]);

        // The lead arrived: a contact of the office with the visitor's email and name, and its one activity.
        const contact = await contactWithEmail(email);
        expect(contact).toMatchObject({ first_name: 'Vera', brand: world.office });
        // A reload of the thanks page sends nothing again (Post/Redirect/Get).
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Thanks, Dana Reyes will be in touch' }).waitFor();
        const timeline = await gable.app.inject({
          method: 'GET',
          url: `/contacts/${contact!.id}/timeline`,
          headers: world.dana.headers,
        });
        expect(timeline.json().data.map((a: { action: string }) => a.action)).toEqual(['ContactLeadCaptured']);
      } finally {
        await context.close();
      }
    });
  }
});
