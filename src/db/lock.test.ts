import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLock, DataDirLockedError } from './lock.js';

describe('data directory lock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gable-lock-'));
  const file = join(dir, 'gable.lock');
  afterEach(() => rmSync(file, { force: true }));

  it('refuses a second holder while the first lives, and frees on release', () => {
    const lock = acquireLock(file);
    expect(() => acquireLock(file)).toThrow(DataDirLockedError);
    lock.release();
    expect(existsSync(file)).toBe(false);
    acquireLock(file).release();
  });

  it('takes over a lock left by a process that died', () => {
    writeFileSync(file, '999999999'); // no such pid
    const lock = acquireLock(file);
    expect(existsSync(file)).toBe(true);
    lock.release();
    rmSync(dir, { recursive: true, force: true });
  });
});
