// runGable(): the real `gable` command in a child process, as an operator runs it; runAdminCommand(): one command
// group parsed in-process on a test database.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { vi } from 'vitest';
import type { CommandDepsRunner } from '../../src/platform/commands.js';
import type { Deps } from '../../src/platform/deps.js';
import { TEST_SECRET_KEY } from './app.js';

const run = promisify(execFile);

/** Runs `node bin/gable.js …args` with this process's environment (PATH, …) plus `env`; resolves its output. */
export async function runGable(
  args: string[],
  env: Record<string, string>,
): Promise<{ stdout: string; stderr: string }> {
  return run('node', ['bin/gable.js', ...args], {
    env: { ...process.env, SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: 'silent', BASE_URL: 'http://gable.test', ...env },
  });
}

/** What an in-process command printed, and the exit code it set. */
export interface CommandOutput {
  out: string;
  err: string;
  exitCode: number | string | undefined;
}

/**
 * Parses `args` with the commands `register` adds under a fresh `admin` group, in this process, on the test's
 * database (`deps`), capturing console output and process.exitCode (restored afterwards).
 */
export async function runAdminCommand(
  register: (admin: Command, runner: CommandDepsRunner) => void,
  deps: Deps,
  ...args: string[]
): Promise<CommandOutput> {
  const admin = new Command('admin').exitOverride();
  register(admin, (command) => command(deps));
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void out.push(parts.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void err.push(parts.join(' ')));
  process.exitCode = undefined;
  try {
    await admin.parseAsync(args, { from: 'user' });
    return { out: out.join('\n'), err: err.join('\n'), exitCode: process.exitCode };
  } finally {
    log.mockRestore();
    error.mockRestore();
    process.exitCode = undefined;
  }
}

/** Starts `node bin/gable.js …args` as a long-running child (a server, a worker) with this environment plus `env`. */
export function spawnGable(args: string[], env: Record<string, string>): ChildProcess {
  return spawn('node', ['bin/gable.js', ...args], { env: { ...process.env, ...env }, stdio: 'ignore' });
}
