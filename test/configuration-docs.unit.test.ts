// docs/configuration.md's table of variables is generated from src/config-variables.ts, the list the configuration
// code reads from (a name outside it is a type error). These tests hold the three together: the committed table is
// the generated one, and the list names no variable the code does not read.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VARIABLES, withVariablesTable } from '../src/config-variables.js';

const source = ['src/config.ts', 'src/config-push.ts'].map((file) => readFileSync(file, 'utf8')).join('\n');
const docs = readFileSync('docs/configuration.md', 'utf8');
const listed: string[] = VARIABLES.flatMap((row) => [...row.names]);

/** Names the code reads: `read('NAME')` (config.ts) and `source.read('NAME')`/`own('NAME')` (push, per app too). */
function readByCode(): Set<string> {
  return new Set([...source.matchAll(/\b(?:read|own)\('([A-Z][A-Z0-9_]*)'\)/g)].map((m) => m[1]!));
}

describe('docs/configuration.md', () => {
  it('holds the table generated from src/config-variables.ts (else run `npm run docs:config`)', () => {
    expect(docs).toEqual(withVariablesTable(docs));
  });

  it('lists every variable the code reads, each once', () => {
    expect([...readByCode()].filter((name) => !listed.includes(name))).toEqual([]);
    expect(listed.filter((name, index) => listed.indexOf(name) !== index)).toEqual([]);
  });

  it('lists no variable the code does not read', () => {
    const read = readByCode();
    expect(listed.filter((name) => !read.has(name))).toEqual([]);
  });

  it('reads enough of the code to mean something', () => {
    expect(readByCode().size).toBeGreaterThan(40);
    expect(readByCode()).toContain('CHROMIUM_PATH');
  });
});
