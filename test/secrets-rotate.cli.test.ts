// `gable secrets rotate` as an operator runs it (docs/secret-rotation.md): a wrong SECRET_KEY_PREVIOUS is refused by
// its fingerprint with nothing written; a run killed (SIGKILL) after its first batch leaves every secret readable
// with SECRET_KEY and the previous key, `gable doctor` counts what is left, and a second run finishes, after which
// SECRET_KEY alone reads every secret, each the same plaintext as before.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { closeDeps, createDeps } from '../src/deps.js';
import type { Deps } from '../src/platform/deps.js';
import { keyFingerprint } from '../src/lib/crypto.js';
import { surveySealed } from '../src/platform/secret-rotation.js';
import { SEALED_COLUMNS } from '../src/cli/sealed-columns.js';
import { TEST_SECRET_KEY } from './helpers/app.js';
import { runGable } from './helpers/cli.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { plaintexts, sealedSnapshot, sealEveryKind } from './helpers/sealed.js';

const OLD = TEST_SECRET_KEY;
const NEW = '5a'.repeat(32);
const WRONG = '33'.repeat(32);
const DEVICES = 600;
const VALUES = 5 + DEVICES;

let dataDir: string;
let database: TestDatabase | undefined;
let env: Record<string, string>;

/** Opens the database with these keys (SECRET_KEY, SECRET_KEY_PREVIOUS), runs `run`, closes it again. */
async function withKeys<T>(secretKey: string, previous: string, run: (deps: Deps) => Promise<T>): Promise<T> {
  const deps = await createDeps(loadConfig({ ...env, SECRET_KEY: secretKey, SECRET_KEY_PREVIOUS: previous }));
  try {
    return await run(deps);
  } finally {
    await closeDeps(deps);
  }
}

const survey = (secretKey: string, previous: string) =>
  withKeys(secretKey, previous, (deps) => surveySealed(deps.db, deps.secrets, deps.config, SEALED_COLUMNS));

const failureOf = (run: Promise<unknown>) =>
  run.then(
    () => null,
    (error: unknown) => error as { code: number; stdout: string; stderr: string },
  );

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'gable-rotate-'));
  database = await createTestDatabase({ dataDir: join(dataDir, 'pgdata') });
  await database.pglite?.close();
  env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BASE_URL: 'http://gable.test',
    CHROMIUM_PATH: 'none',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
  };
  await withKeys(OLD, '', (deps) => sealEveryKind(deps, deps.secrets, DEVICES));
});

afterAll(async () => {
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('gable secrets rotate', () => {
  it('refuses a previous key that opens nothing, naming it by fingerprint, and writes nothing', async () => {
    const before = await withKeys(OLD, '', (deps) => sealedSnapshot(deps));
    const failure = await failureOf(
      runGable(['secrets', 'rotate'], { ...env, SECRET_KEY: NEW, SECRET_KEY_PREVIOUS: WRONG }),
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(
      `SECRET_KEY_PREVIOUS (fingerprint ${keyFingerprint(Buffer.from(WRONG, 'hex'))}) opens none of the ${VALUES}`,
    );
    expect(failure?.stderr).toContain('nothing was written');
    expect(failure?.stderr).not.toContain(WRONG);
    expect(await withKeys(OLD, '', (deps) => sealedSnapshot(deps))).toEqual(before);
  }, 60_000);

  it('killed after its first batch, leaves every secret readable; run again, finishes', async () => {
    const before = await withKeys(OLD, '', async (deps) => plaintexts(await sealedSnapshot(deps), deps.secrets));
    const child = spawn('node', ['bin/gable.js', 'secrets', 'rotate', '--batch-size', '1'], {
      env: { ...process.env, ...env, SECRET_KEY: NEW, SECRET_KEY_PREVIOUS: OLD },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/re-encrypting: \d+%/.test(output)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const signal = await new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    expect(signal, output).toBe('SIGKILL');

    const midway = await survey(NEW, OLD);
    expect(midway.unreadable).toBe(0);
    expect(midway.byKey[0]).toBeGreaterThan(0);
    expect(midway.byKey[1]).toBeGreaterThan(0);
    expect(midway.byKey[0]! + midway.byKey[1]!).toBe(VALUES);

    const doctor = await runGable(['doctor', '--json'], { ...env, SECRET_KEY: NEW, SECRET_KEY_PREVIOUS: OLD });
    const row = (JSON.parse(doctor.stdout) as { feature: string; detail: string }[]).find(
      (r) => r.feature === 'secrets',
    );
    expect(row?.detail).toContain(`${midway.byKey[1]} stored secret(s) still under SECRET_KEY_PREVIOUS`);

    const rerun = await runGable(['secrets', 'rotate'], { ...env, SECRET_KEY: NEW, SECRET_KEY_PREVIOUS: OLD });
    expect(rerun.stdout).toContain(`re-encrypted ${midway.byKey[1]} secret(s)`);
    expect(rerun.stdout).toMatch(/SECRET_KEY_PREVIOUS may be dropped/);

    expect(await survey(NEW, '')).toMatchObject({ byKey: [VALUES], unreadable: 0 });
    expect(await withKeys(NEW, '', async (deps) => plaintexts(await sealedSnapshot(deps), deps.secrets))).toEqual(
      before,
    );
  }, 180_000);
});
