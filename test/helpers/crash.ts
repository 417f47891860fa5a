// The set-up of a crash test: a real worker process — `gable worker` on PostgreSQL, `gable serve` (workers in
// process) on the embedded database — against a fresh test database and a loopback SMTP relay, killed and
// restarted by the test. `useCrashHarness()` registers the hooks of one test file.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { closeDeps, createDeps, startJobs } from '../../src/deps.js';
import type { Deps } from '../../src/platform/deps.js';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp.js';
import { TEST_SECRET_KEY } from './app.js';
import { spawnGable } from './cli.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface CrashHarness {
  readonly sink: SmtpSink;
  /** Opens the database the worker uses from the test's process (embedded: only while no worker holds it). */
  withDatabase<T>(run: (deps: Deps) => Promise<T>): Promise<T>;
  /** `env`: more configuration for this process only (e.g. SHUTDOWN_TIMEOUT_SECONDS). */
  startWorker(env?: Record<string, string>): ChildProcess;
  /** `gable serve` on both databases (workers in process), listening on `port`. */
  startServer(port: number, env?: Record<string, string>): ChildProcess;
}

/**
 * `sinkDelayMs`: the relay's pace per message (a real relay's pace lets a kill land mid-run). `env`: more
 * configuration for the worker and the test's own deps (e.g. the networks a webhook may be sent to).
 */
export function useCrashHarness(options: { sinkDelayMs?: number; env?: Record<string, string> } = {}): CrashHarness {
  // Undefined until beforeAll has made them (afterAll also runs when it failed half way).
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let sink: SmtpSink | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    const made = (database = await createTestDatabase());
    dataDir = mkdtempSync(join(tmpdir(), 'gable-crash-'));
    const started = (sink = await startSmtpSink(options.sinkDelayMs ? { delayMs: options.sinkDelayMs } : {}));
    env = {
      SECRET_KEY: TEST_SECRET_KEY,
      LOG_LEVEL: 'silent',
      BASE_URL: 'http://gable.test',
      SMTP_URL: started.url,
      DATA_DIR: dataDir,
      ...(made.databaseUrl ? { DATABASE_URL: made.databaseUrl } : {}),
      ...options.env,
    };
  });

  afterAll(async () => {
    await sink?.close();
    await database?.pglite?.close();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    get sink() {
      if (!sink) throw new Error('the crash harness is not started');
      return sink;
    },
    async withDatabase(run) {
      const deps = await createDeps(loadConfig(env), {});
      try {
        await migrateToLatest(deps.db);
        await startJobs(deps);
        return await run(deps);
      } finally {
        await closeDeps(deps);
      }
    },
    startWorker(more = {}) {
      // Embedded, `gable worker` refuses to run (PGlite is one process): `gable serve` runs the workers itself.
      return spawnGable([database!.databaseUrl === null ? 'serve' : 'worker'], {
        ...env,
        PORT: '0',
        HOST: '127.0.0.1',
        WORKERS_IN_PROCESS: 'true',
        ...more,
      });
    },
    startServer(port, more = {}) {
      return spawnGable(['serve'], { ...env, PORT: String(port), HOST: '127.0.0.1', ...more });
    },
  };
}

export const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );

export async function until(condition: () => boolean, seconds: number, what: string): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
