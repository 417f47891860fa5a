// What a feature's `gable` commands use to run (issue 29: modules sit below the composition that builds them).
// A command opens the server's dependencies with `withDeps`; how they are opened — the database, the queue, every
// service — is the composition's business (cli/open-deps.ts), provided once by main.ts before any command runs.
// So a module declares its commands without importing the composition root, and `--help` loads none of it.
import { loadConfig, ConfigError, type Config } from '../config.js';
import { AppError } from '../errors.js';
import type { Deps } from './deps.js';
import { DataDirLockedError } from '../db/lock.js';
import { callOperatorChannel, OperatorChannelUnavailableError } from './operator-channel.js';

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

/** Opens everything a command needs, runs it, and always closes what it opened. */
export type DepsOpener = <T>(options: CommandContextOptions, run: (deps: Deps) => Promise<T>) => Promise<T>;

let opener: DepsOpener | null = null;

/** Called by main.ts, once, with the composition's way of opening the dependencies. */
export function provideDepsOpener(open: DepsOpener): void {
  opener = open;
}

/** Opens everything a command needs (the opener main.ts provided), runs `run`, and always closes what it opened. */
export function withDeps<T>(options: CommandContextOptions, run: (deps: Deps) => Promise<T>): Promise<T> {
  if (!opener) throw new Error('withDeps: no opener provided (main.ts calls provideDepsOpener before commands run)');
  return opener(options, run);
}

/** How a command gets its dependencies: `withDeps` (configuration from the environment); tests pass their own. */
export type CommandDepsRunner = (run: (deps: Deps) => Promise<void>) => Promise<void>;

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

/** Prints a value as JSON or as indented key: value lines. */
export function print(value: unknown, json: boolean): void {
  if (json) console.log(JSON.stringify(value, null, 2));
  else console.log(value);
}

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

/**
 * Runs a command's work, printing a mistake the work refused (an unknown id, a duplicate email, a bad ACL word: an
 * AppError below 500) as one readable line with exit code 1; anything else is a bug and keeps its stack trace.
 */
export async function reportOperatorErrors(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof AppError) || error.http >= 500) throw error;
    console.error(`error: ${error.message}`);
    process.exitCode = 1;
  }
}
