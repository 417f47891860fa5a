// An automated accessibility check for the browser suite: axe-core (a devDependency) injected into the page, run,
// and every serious or critical violation reported. The context must be made with `bypassCSP: true`: the public
// pages allow no script, the check's own included. (The lead merges this with test/browser/axe.ts.)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`,
  )) as Violation[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}
