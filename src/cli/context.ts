// Shared set-up of CLI commands: configuration, database (migrated), job queue ready to enqueue.
import { loadConfig, ConfigError, type Config } from '../config.js';
import { closeDeps, createDeps, startJobs, type Deps } from '../deps.js';
import { migrateToLatest } from '../db/migrator.js';

export interface CommandContextOptions {
  workers?: boolean;
  /** Start the job queue (needed to enqueue; costs a few queries). */
  jobs?: boolean;
  /** Apply migrations first (default true). */
  migrate?: boolean;
}

export function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

/** Opens everything a command needs, runs it, and always closes what it opened. */
export async function withDeps<T>(options: CommandContextOptions, run: (deps: Deps) => Promise<T>): Promise<T> {
  const config = readConfig();
  const deps = await createDeps(config, { workers: options.workers ?? false });
  try {
    if (options.migrate ?? true) await migrateToLatest(deps.db);
    if (options.jobs) await startJobs(deps);
    return await run(deps);
  } finally {
    await closeDeps(deps);
  }
}

/** Prints a value as JSON or as indented key: value lines. */
export function print(value: unknown, json: boolean): void {
  if (json) console.log(JSON.stringify(value, null, 2));
  else console.log(value);
}

/** How a command gets its dependencies: `withDeps` (configuration from the environment); tests pass their own. */
export type CommandDepsRunner = (run: (deps: Deps) => Promise<void>) => Promise<void>;
