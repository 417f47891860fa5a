// `gable seed demo --json` as an operator runs it, on an embedded data directory: it writes DATA_DIR/demo.json,
// and while a server holds the directory it prints that file instead of failing on the lock.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGable } from '../../../test/helpers/cli.js';
import { acquireLock } from '../../db/lock.js';

type Failure = { code: number; stdout: string; stderr: string };

describe('gable seed demo on an embedded data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gable-demo-cli-'));
  // embedded even when the suite runs on PostgreSQL
  const env = { DATA_DIR: join(dir, 'data'), DATABASE_URL: '' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds, prints JSON and writes the same world to DATA_DIR/demo.json; while the directory is held, prints that file', async () => {
    const seeded = await runGable(['seed', 'demo', '--json'], env);
    const world = JSON.parse(seeded.stdout) as { users: { email: string }[] };
    expect(world.users.length).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(join(env.DATA_DIR, 'demo.json'), 'utf8'))).toEqual(world);

    const lock = acquireLock(join(env.DATA_DIR, 'gable.lock')); // as a running server holds it
    try {
      const whileRunning = await runGable(['seed', 'demo', '--json'], env);
      expect(JSON.parse(whileRunning.stdout)).toEqual(world);
      expect(whileRunning.stderr).toContain('printing');
      const text = await runGable(['seed', 'demo'], env);
      expect(text.stdout).toContain(world.users[0]!.email);
    } finally {
      lock.release();
    }
  }, 120_000);

  it('says what to do when the directory is held and no demo.json exists', async () => {
    const other = join(dir, 'other');
    mkdirSync(other, { recursive: true });
    const lock = acquireLock(join(other, 'gable.lock'));
    try {
      const failure = await runGable(['seed', 'demo', '--json'], { ...env, DATA_DIR: other }).then(
        () => null,
        (error: Failure) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).toBe('');
      expect(failure?.stderr).toContain('stop it and run this command again');
    } finally {
      lock.release();
    }
  }, 60_000);
});
