// An automated accessibility check for the browser suite: axe-core (the engine of the browsers' accessibility audits)
// run inside the page as it is rendered, failing on any violation of impact serious or critical. The script is added
// through the driver (playwright's addScriptTag with the source as content), so it runs whatever the page's own
// Content-Security-Policy says: the pages under test ship no script and allow none.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface A11yViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** The violations of the page as it is now (all impacts), each with the selectors of its elements. */
export async function a11yViolations(page: Page): Promise<A11yViolation[]> {
  // addScriptTag({content}) inserts an inline script, which a page's CSP may refuse; evaluating the source through
  // the driver is not subject to the page's CSP.
  await page.evaluate(AXE_SOURCE);
  // A string expression: the test project has no DOM types (it runs in the page).
  return (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) })))`)) as A11yViolation[];
}

/** Fails the test on any serious or critical axe-core violation of the page, naming each with its elements. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const serious = (await a11yViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const named = serious.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.join(', ')})`);
  expect(serious.length, `serious or critical accessibility violations:\n${named.join('\n')}`).toBe(0);
}
