// buildTestApp(): the real app on a fresh database copy, with a clock the test controls.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { closeDeps, createDeps, startJobs } from '../../src/deps.js';
import type { Deps } from '../../src/platform/deps.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createTestDatabase } from './database.js';

export const TEST_SECRET_KEY = '0f'.repeat(32);

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  clock: ManualClock;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Start of the test clock (default: the real now). */
  now?: Date;
  env?: Record<string, string>;
  config?: Partial<Config>;
  /** Consume jobs in this app's process, as `gable worker` does (default: tests run jobs themselves). */
  workers?: boolean;
  /** The app's logger (default: silent, or TEST_LOG_LEVEL): a test that reads the log passes its own. */
  log?: FastifyBaseLogger;
  /** Embedded: keep the database on disk in the app's data directory, as `gable serve` does (default: in memory). */
  databaseOnDisk?: boolean;
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gable-app-'));
  const database = await createTestDatabase(options.databaseOnDisk ? { dataDir: join(dataDir, 'pgdata') } : {});
  let deps: Deps | undefined;
  let app: FastifyInstance | undefined;
  // Undoes whatever was built, also when building failed half-way (no stray databases or temp dirs).
  const teardown = async () => {
    await app?.close();
    if (deps) await closeDeps(deps);
    await database.pglite?.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const config = loadConfig(
      {
        DATA_DIR: dataDir,
        SECRET_KEY: TEST_SECRET_KEY,
        LOG_LEVEL: 'silent',
        BASE_URL: 'http://gable.test',
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
        ...options.env,
      },
      options.config,
    );
    const clock = new ManualClock(options.now ?? new Date());
    deps = await createDeps(config, {
      clock,
      log: options.log ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      ...(database.pglite ? { pglite: database.pglite } : {}),
      ...(options.workers ? { workers: true } : {}),
    });
    await startJobs(deps);
    app = await buildApp(deps);
    return { app, deps, clock, close: teardown };
  } catch (error) {
    await teardown().catch(() => undefined); // the build error is the one worth reporting
    throw error;
  }
}

/**
 * The test app of a describe block: built in its beforeAll, closed in its afterAll. Returns a handle whose `app`,
 * `deps` and `clock` are the built app's (read them inside hooks and tests). Hooks the block registers after this
 * call run after the build, so a block's own beforeAll can create its fixtures with `t.deps`.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  let built: TestApp | undefined;
  beforeAll(async () => {
    built = await buildTestApp(options);
  });
  afterAll(async () => {
    await built?.close();
    built = undefined;
  });
  const current = (): TestApp => {
    if (!built) throw new Error('useTestApp: the app exists only inside hooks and tests of its block');
    return built;
  };
  return {
    get app() {
      return current().app;
    },
    get deps() {
      return current().deps;
    },
    get clock() {
      return current().clock;
    },
    close: () => {
      throw new Error('useTestApp: the app is closed by its own afterAll; do not close it yourself');
    },
  };
}
