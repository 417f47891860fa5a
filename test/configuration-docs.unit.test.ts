// docs/configuration.md lists every variable the configuration reads, and nothing else: the table is checked
// against the code, in both directions, so a new setting cannot ship undocumented and a removed one cannot linger.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const source = ['src/config.ts', 'src/config-push.ts'].map((file) => readFileSync(file, 'utf8')).join('\n');
const docs = readFileSync('docs/configuration.md', 'utf8');

/** Names the code reads: `read('NAME')` (config.ts) and `source.read('NAME')`/`own('NAME')` (push, per app too). */
function readByCode(): Set<string> {
  return new Set([...source.matchAll(/\b(?:read|own)\('([A-Z][A-Z0-9_]*)'\)/g)].map((m) => m[1]!));
}

/** Names in the first column of the table's rows (a row may list several: `A`, `B`). */
function documented(): Set<string> {
  const names = new Set<string>();
  for (const line of docs.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const firstCell = line.split('|')[1]!;
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return names;
}

describe('docs/configuration.md', () => {
  it('lists every variable the code reads', () => {
    const missing = [...readByCode()].filter((name) => !documented().has(name));
    expect(missing).toEqual([]);
  });

  it('lists no variable the code does not read (examples of per-app names aside)', () => {
    const read = readByCode();
    const perApp = /_BROKERAGE_IOS$/; // the documented example of the per-app suffix
    const stale = [...documented()].filter((name) => !read.has(name) && !perApp.test(name));
    expect(stale).toEqual([]);
  });

  it('reads enough of the code to mean something', () => {
    expect(readByCode().size).toBeGreaterThan(40);
    expect(readByCode()).toContain('CHROMIUM_PATH');
  });
});
