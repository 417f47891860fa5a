// The accessibility check itself (test/browser/axe.ts) can fail: a page with an unlabelled field and an image
// without a text alternative has serious and critical violations, and the check names them.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a11yViolations, expectNoSeriousA11yViolations } from './axe.js';
import { launchTestChromium } from './chromium.js';

describe('expectNoSeriousA11yViolations', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchTestChromium();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('passes a clean page and fails one with serious violations, naming them', async () => {
    const page = await browser.newPage();
    try {
      await page.setContent(
        '<!doctype html><html lang="en"><head><title>Clean</title></head><body><main><h1>Hello</h1><label for="n">Name</label><input id="n"></main></body></html>',
      );
      await expectNoSeriousA11yViolations(page);
      await page.setContent(
        '<!doctype html><html lang="en"><head><title>Broken</title></head><body><main><h1>Hello</h1><input><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>',
      );
      const ids = (await a11yViolations(page)).map((v) => v.id);
      expect(ids).toEqual(expect.arrayContaining(['label', 'image-alt']));
      await expect(expectNoSeriousA11yViolations(page)).rejects.toThrow(/critical image-alt/);
    } finally {
      await page.close();
    }
  });
});
