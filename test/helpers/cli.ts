// runGable(): the real `gable` command in a child process, as an operator runs it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TEST_SECRET_KEY } from './app.js';

const run = promisify(execFile);

/** Runs `node bin/gable.js …args` with this process's environment (PATH, …) plus `env`; resolves its output. */
export async function runGable(args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return run('node', ['bin/gable.js', ...args], {
    env: { ...process.env, SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: 'silent', BASE_URL: 'http://gable.test', ...env },
  });
}
