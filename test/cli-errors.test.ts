// What an operator meets when a command cannot go on for what they gave it (issue 30 item 8): a missing file, a
// mistyped flag, a database that cannot be reached — one line each, exit 2, no stack trace unless --verbose. Runs
// the compiled CLI, as an operator does.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/ports.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'gable-cli-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BRAND = '00000000-0000-4000-8000-000000000001';
/** A line of a stack trace. */
const STACK_LINE = /^\s+at /m;

async function gable(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, ['bin/gable.js', ...args], {
    env: { ...process.env, BASE_URL: 'http://127.0.0.1:3000', DATABASE_URL: '', DATA_DIR: dir, ...env },
  }).then(
    (done) => ({ ...done, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => error,
  );
}

describe('command errors', () => {
  it('names a missing file in one line, exit 2, for each command that reads one', async () => {
    for (const args of [
      ['import', 'contacts', '--brand', BRAND, 'missing.csv'],
      ['import', 'listings', 'missing.ndjson'],
    ]) {
      const { stderr, code } = await gable(args);
      const file = args.at(-1)!;
      expect(stderr.trim(), args.join(' ')).toBe(`${file}: no such file`);
      expect(code).toBe(2);
    }
  });

  it('prints the stack trace too with --verbose', async () => {
    const { stderr, code } = await gable(['import', 'listings', 'missing.ndjson', '--verbose']);
    expect(stderr).toMatch(STACK_LINE);
    expect(stderr.trim().split('\n').at(-1)).toBe('missing.ndjson: no such file');
    expect(code).toBe(2);
  });

  it('refuses a mistyped flag with exit 2 and the usage', async () => {
    const { stderr, code } = await gable(['admin', 'client', 'list', '--bogus']);
    expect(stderr).toContain("error: unknown option '--bogus'");
    expect(stderr).toContain('Usage: gable admin client list');
    expect(stderr).not.toMatch(STACK_LINE);
    expect(code).toBe(2);
  });

  it('says the database cannot be reached in one line, exit 2', async () => {
    const port = await freePort(); // nothing listens there
    const { stderr, code } = await gable(['admin', 'client', 'list'], {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/gable`,
      SECRET_KEY: 'a'.repeat(64),
    });
    expect(stderr.trim()).toBe(`cannot reach the database (DATABASE_URL): connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(code).toBe(2);
  });
});
