// `npm run test:docs`: every marked walk-through of README.md and docs/*.md (test/docs/walkthroughs.ts) run as
// written against one `npm start` on the embedded database, as a newcomer runs them: the compiled server on a
// fresh data directory, then each block in bash (`set -euo pipefail`) from the directory that holds `data/`,
// after the README's block (API, TOKEN). A block fails on a non-zero exit, a 5xx answer or a value it looked
// up and did not find; its output is shown.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';
import { allWalkthroughs, type Walkthrough } from './walkthroughs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const walkthroughs = allWalkthroughs(ROOT);
const dir = mkdtempSync(join(tmpdir(), 'gable-docs-'));
let port = 0;
let server: ChildProcess | null = null;
let serverLog = '';

/** The README's own block: what has run in a reader's terminal before any page's walk-through (API, TOKEN, BRAND…). */
const readmeBlock = walkthroughs.find((w) => w.name.startsWith('README.md:'));

/**
 * What a reader's terminal holds when a block runs: the port, `npx gable` meaning this repository's gable (the
 * blocks run in a scratch directory, where npx would look for a package of that name), and, for a page of docs/,
 * the README's block before it.
 */
function preamble(walkthrough: Walkthrough): string {
  return [
    `export PORT=${port}`,
    `npx() { if [ "$1" = gable ]; then shift; node ${JSON.stringify(join(ROOT, 'bin/gable.js'))} "$@"; else command npx "$@"; fi; }`,
    ...(walkthrough.name.startsWith('README.md:') || !readmeBlock ? [] : [readmeBlock.code]),
  ].join('\n');
}

beforeAll(async () => {
  port = await freePort();
  server = spawn(process.execPath, [join(ROOT, 'bin/gable.js'), 'serve'], {
    cwd: dir,
    // As `npm start` in a fresh clone: the embedded database in ./data, nothing else set.
    env: { ...process.env, PORT: String(port), DATABASE_URL: '', BASE_URL: '', DATA_DIR: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (serverLog = (serverLog + chunk.toString()).slice(-20_000));
  server.stdout!.on('data', keep);
  server.stderr!.on('data', keep);
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`gable serve exited with ${server.exitCode}:\n${serverLog}`);
    const up = await fetch(`http://127.0.0.1:${port}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`gable serve did not answer /health within 240 s:\n${serverLog}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 300_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    // A graceful stop waits up to 10 s for work in flight; a busy machine may take longer still.
    const killer = setTimeout(() => server?.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(killer);
  }
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('walk-throughs', () => {
  it('are found: README.md and several pages of docs/ mark theirs', () => {
    expect(walkthroughs.map((w) => w.name.split(':')[0])).toContain('README.md');
    expect(new Set(walkthroughs.map((w) => w.name.split(':')[0])).size).toBeGreaterThan(1);
  });

  for (const walkthrough of walkthroughs) {
    it(`${walkthrough.name} runs as written`, { timeout: 180_000 }, () => {
      const script = join(dir, 'block.sh');
      writeFileSync(script, `set -euo pipefail\n${preamble(walkthrough)}\n${walkthrough.code}\n`);
      const run = spawnSync('bash', [script], {
        cwd: dir,
        env: { ...process.env, DATABASE_URL: '', BASE_URL: '' },
        encoding: 'utf8',
        timeout: 170_000,
      });
      const shown = `${walkthrough.name} exited ${run.status}\n${run.stdout}\n${run.stderr}`;
      expect(run.status, shown).toBe(0);
      // Beyond the exit status: no answer of the server was a 5xx, and no value a block looked up came out
      // missing (`node -p` prints `undefined` for a field that is not there, and the block goes on with it).
      expect(run.stdout, shown).not.toMatch(/"http":5\d\d/);
      expect(run.stdout.split('\n'), shown).not.toContain('undefined');
    });
  }
});
