// Shared set-up of CLI commands: configuration, database (schema current), job queue ready to enqueue. The database,
// the queue and the services load when a command opens them (withDeps), not when `gable --help` reads this file.
import { loadConfig, ConfigError, type Config } from '../config.js';
import type { Deps } from '../platform/deps.js';
import { assertUnlocked, dataDirLockFile, DataDirLockedError } from '../db/lock.js';
import { callOperatorChannel, OperatorChannelUnavailableError } from '../platform/operator-channel.js';

export interface CommandContextOptions {
  workers?: boolean;
  /** Start the job queue (needed to enqueue; costs a few queries). */
  jobs?: boolean;
  /**
   * Bring the schema up to date first (default true): on the embedded database it is migrated, on PostgreSQL a
   * schema that is behind stops the command (prepareSchemaForCommand). `false` for `gable migrate` itself.
   */
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
  // Beside a running embedded server the command cannot open the database: say so before loading the server's
  // modules (most of a second), not after. createDeps still takes the lock itself.
  if (config.databaseUrl === null) assertUnlocked(dataDirLockFile(config.dataDir));
  const [{ closeDeps, createDeps, startJobs }, { prepareSchemaForCommand }] = await Promise.all([
    import('../deps.js'),
    import('../db/migrator.js'),
  ]);
  const deps = await createDeps(config, { workers: options.workers ?? false });
  try {
    if (options.migrate ?? true) await prepareSchemaForCommand(deps.db, config.embedded);
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

/**
 * Runs a command's work on the database, or, when a running embedded server holds DATA_DIR, runs the same work
 * as `action` on that server through its operator channel (platform/operator-channel.ts), so it acts live there
 * (its streams, its workers). Only for work the server registers as an operator action with the same result.
 */
export async function runHereOrOnServer<T>(
  withCommandDeps: CommandDepsRunner,
  local: (deps: Deps) => Promise<T>,
  action: string,
  body: unknown,
): Promise<T> {
  let result: { value: T } | undefined;
  try {
    await withCommandDeps(async (deps) => {
      result = { value: await local(deps) };
    });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    try {
      const value = (await callOperatorChannel(readConfig().dataDir, action, body)) as T;
      // stderr, so that `--json` output stays one JSON document
      console.error('note: a running server holds the embedded database; the command ran in that server.');
      return value;
    } catch (channelError) {
      if (channelError instanceof OperatorChannelUnavailableError)
        throw new OperatorChannelUnavailableError(`${error.message}\nAnd ${channelError.message}.`);
      throw channelError;
    }
  }
  return result!.value;
}
