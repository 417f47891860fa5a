// `npm run test:docs`: every marked walk-through of README.md and docs/*.md (test/docs/walkthroughs.ts) run as
// written against one `npm start` on the embedded database, as a newcomer runs them: the compiled server on a
// fresh data directory, then each block in bash (`set -euo pipefail`) from the directory that holds `data/`,
// after the README's block (API, TOKEN). A block fails on a non-zero exit, a 5xx answer or a value it looked
// up and did not find; its output is shown. A block that needs the server started with more (its mark says what,
// and its page says so before it) runs against a second server started that way, in a directory of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeMicrosoft } from '../fakes/microsoft.js';
import { freePort } from '../helpers/ports.js';
import { allWalkthroughs, type Need, type Walkthrough } from './walkthroughs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const walkthroughs = allWalkthroughs(ROOT);
const scratch = mkdtempSync(join(tmpdir(), 'gable-docs-'));

interface Served {
  port: number;
  /** The working directory of the server, and of the blocks run against it (it holds `data/`). */
  dir: string;
  stop(): Promise<void>;
}

/** `gable serve` as `npm start` in a fresh clone (the embedded database in ./data), plus `env`; resolved once up. */
async function startServer(dir: string, env: Record<string, string> = {}, port?: number): Promise<Served> {
  mkdirSync(dir, { recursive: true });
  port ??= await freePort();
  const server: ChildProcess = spawn(process.execPath, [join(ROOT, 'bin/gable.js'), 'serve'], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: '',
      BASE_URL: '',
      DATA_DIR: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000));
  server.stdout!.on('data', keep);
  server.stderr!.on('data', keep);
  const stop = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    // A graceful stop waits up to 10 s for work in flight; a busy machine may take longer still.
    const killer = setTimeout(() => server.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(killer);
  };
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`gable serve exited with ${server.exitCode}:\n${log}`);
    const up = await fetch(`http://127.0.0.1:${port}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return { port, dir, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`gable serve did not answer /health within 240 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Runs a block in bash; resolves its exit status (null when the time limit killed it) and output. Asynchronous, so
 * the fakes this process serves (the Microsoft fake) answer while the block runs.
 */
function runBlock(script: string, cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', [script], { cwd, env: { ...process.env, DATABASE_URL: '', BASE_URL: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const limit = setTimeout(() => child.kill('SIGKILL'), 170_000);
  return new Promise((resolve) =>
    child.once('close', (status) => {
      clearTimeout(limit);
      resolve({ status, stdout, stderr });
    }),
  );
}

/** What each need starts: the server, with what the page tells the reader to start it with. */
const startWith: Record<Need, () => Promise<Served>> = {
  // docs/extmail.md: the fake of test/fakes/microsoft-server.ts, and the server started with the variables it prints.
  'microsoft-fake': async () => {
    const port = await freePort();
    const fake = new FakeMicrosoft({ redirectUris: [`http://127.0.0.1:${port}/extmail/callback`] });
    await fake.start();
    fake.seedDemoMailbox(25);
    const served = await startServer(join(scratch, 'microsoft-fake'), fake.env(), port).catch(async (error) => {
      await fake.stop();
      throw error;
    });
    return { ...served, stop: () => served.stop().finally(() => fake.stop()) };
  },
};

let plain: Served | null = null;
const started = new Map<Need, Promise<Served>>();

/** The README's own block: what has run in a reader's terminal before any page's walk-through (API, TOKEN, BRAND…). */
const readmeBlock = walkthroughs.find((w) => w.name.startsWith('README.md:'));

/**
 * What a reader's terminal holds when a block runs: the port, `npx gable` meaning this repository's gable (the
 * blocks run in a scratch directory, where npx would look for a package of that name), and, for a page of docs/,
 * the README's block before it.
 */
function preamble(walkthrough: Walkthrough, port: number): string {
  return [
    `export PORT=${port}`,
    `npx() { if [ "$1" = gable ]; then shift; node ${JSON.stringify(join(ROOT, 'bin/gable.js'))} "$@"; else command npx "$@"; fi; }`,
    ...(walkthrough.name.startsWith('README.md:') || !readmeBlock ? [] : [readmeBlock.code]),
  ].join('\n');
}

beforeAll(async () => {
  plain = await startServer(join(scratch, 'plain'));
}, 300_000);

afterAll(async () => {
  await Promise.all([plain?.stop(), ...[...started.values()].map((served) => served.then((s) => s.stop()))]);
  rmSync(scratch, { recursive: true, force: true });
}, 90_000);

describe('walk-throughs', () => {
  it('are found: README.md and several pages of docs/ mark theirs', () => {
    expect(walkthroughs.map((w) => w.name.split(':')[0])).toContain('README.md');
    expect(new Set(walkthroughs.map((w) => w.name.split(':')[0])).size).toBeGreaterThan(1);
  });

  for (const walkthrough of walkthroughs) {
    it(`${walkthrough.name} runs as written`, { timeout: 420_000 }, async () => {
      let served = plain!;
      if (walkthrough.needs) {
        const need = walkthrough.needs;
        if (!started.has(need)) started.set(need, startWith[need]());
        served = await started.get(need)!;
      }
      const script = join(served.dir, 'block.sh');
      writeFileSync(script, `set -euo pipefail\n${preamble(walkthrough, served.port)}\n${walkthrough.code}\n`);
      const run = await runBlock(script, served.dir);
      const shown = `${walkthrough.name} exited ${run.status}\n${run.stdout}\n${run.stderr}`;
      expect(run.status, shown).toBe(0);
      // Beyond the exit status: no answer of the server was a 5xx, and no value a block looked up came out
      // missing (`node -p` prints `undefined` for a field that is not there, and the block goes on with it).
      expect(run.stdout, shown).not.toMatch(/"http":5\d\d/);
      expect(run.stdout.split('\n'), shown).not.toContain('undefined');
    });
  }
});
