// `gable --help` at any level answers from the command table alone: the server, the queue, the database driver,
// the S3 client and the browser driver load only when a command runs (src/main.ts). The compiled CLI runs under
// a loader hook that writes down every module it resolves (test/support/record-imports.js).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLock, dataDirLockFile } from '../src/db/lock.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'gable-help-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Packages the command table may load: commander, and what reading the configuration needs. */
const ALLOWED_PACKAGES = new Set(['commander', 'ipaddr.js']);

async function helpOf(args: string[]): Promise<{ stdout: string; packages: string[]; compiled: string[] }> {
  return recorded([...args, '--help']);
}

/** Runs `gable ARGS` under the import recorder: its output (and exit code), and what it loaded. */
async function recorded(args: string[], env: Record<string, string> = {}) {
  const file = join(dir, `${args.join('-') || 'top'}.txt`);
  const { stdout, stderr, code } = await run(
    process.execPath,
    ['--import', './test/support/record-imports.js', 'bin/gable.js', ...args],
    { env: { ...process.env, ...env, RECORD_IMPORTS: file } },
  ).then(
    (done) => ({ ...done, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => error,
  );
  const urls = readFileSync(file, 'utf8').trim().split('\n');
  const packages = urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []);
  const compiled = urls.flatMap((url) => /\/dist\/(.+\.js)$/.exec(url)?.[1] ?? []);
  return { stdout, stderr, code, packages: [...new Set(packages)], compiled: [...new Set(compiled)] };
}

const SERVER_MODULES = /(^|\/)(deps|server|app|bootstrap)\.js$|\.(service|repository)\.js$/;

describe('gable --help', () => {
  it('prints the command table and loads no package but commander and the configuration’s', async () => {
    const { stdout, packages, compiled } = await helpOf([]);
    for (const command of ['serve', 'worker', 'migrate', 'seed', 'import', 'admin', 'mail', 'notify', 'alerts'])
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(compiled).toContain('main.js'); // the recorder saw the compiled CLI: the lists below mean something
    expect(packages).toContain('commander');
    expect(packages.filter((name) => !ALLOWED_PACKAGES.has(name))).toEqual([]);
    expect(compiled.filter((file) => SERVER_MODULES.test(file))).toEqual([]);
  });

  it('does the same for a command group and a command', async () => {
    for (const args of [['admin'], ['admin', 'client', 'create'], ['import', 'contacts']]) {
      const { stdout, packages } = await helpOf(args);
      expect(stdout).toContain(`Usage: gable ${args.join(' ')}`);
      expect(packages.filter((name) => !ALLOWED_PACKAGES.has(name))).toEqual([]);
    }
  });
});

describe('a command beside a running embedded server', () => {
  it('refuses before it loads the server: the lock is read first', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'));
    const lock = acquireLock(dataDirLockFile(dataDir)); // held by this live process, as a serving one holds it
    try {
      const { stderr, code, compiled, packages } = await recorded(['admin', 'client', 'list'], {
        DATA_DIR: dataDir,
        DATABASE_URL: '', // the embedded database, also when the suite runs on PostgreSQL
        BASE_URL: 'http://gable.test', // vitest sets BASE_URL=/ (Vite's), which the configuration refuses
      });
      expect(code).not.toBe(0);
      expect(stderr).toContain(`The embedded database is already open in process ${process.pid}`);
      expect(compiled).toContain('main.js');
      // The command's own module may load (it names the work); the server, the database driver and the queue not.
      expect(compiled.filter((file) => /(^|\/)(deps|server|app|bootstrap)\.js$/.test(file))).toEqual([]);
      for (const heavy of ['@electric-sql/pglite', 'pg-boss', 'fastify']) expect(packages).not.toContain(heavy);
    } finally {
      lock.release();
    }
  });
});
