// The browser of the browser suite: Debian's Chromium, headless, through playwright-core; and where screenshots go
// for a person to look at.
import { mkdirSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const SCREENSHOTS = 'test-artifacts/browser';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];

/** A headless Chromium (close it in afterAll); also makes the screenshot directory. */
export async function launchTestChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}
