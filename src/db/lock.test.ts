import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { acquireLock, DataDirLockedError } from './lock.js';

describe('data directory lock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gable-lock-'));
  const file = join(dir, 'gable.lock');
  afterEach(() => rmSync(file, { force: true }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock naming this very pid that this process did not take (a container restarted as pid 1)', () => {
    // What a killed server left: same pid as ours (containers start the server as pid 1 every time), another run.
    writeFileSync(file, JSON.stringify({ pid: process.pid, boot: null, started: null, token: 'an-earlier-run' }));
    const lock = acquireLock(file);
    lock.release();
    writeFileSync(file, String(process.pid)); // the same, in the lock format of older servers
    acquireLock(file).release();
  });

  it('takes over a lock whose pid lives but belongs to a process started later (pid reused)', () => {
    writeFileSync(file, JSON.stringify({ pid: process.ppid, boot: null, started: '1', token: 'x' }));
    acquireLock(file).release();
  });

  it('refuses while another live process holds it', async () => {
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `
      const { acquireLock } = await import(${JSON.stringify(new URL('./lock.ts', import.meta.url).pathname)});
      acquireLock(${JSON.stringify(file)}); console.log('held'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
        holder.on('exit', (code) => reject(new Error(`holder exited ${code}`)));
      });
      expect(() => acquireLock(file)).toThrow(DataDirLockedError);
    } finally {
      holder.kill('SIGKILL');
    }
    await new Promise((resolve) => holder.once('exit', resolve));
    acquireLock(file).release(); // killed: its lock is stale now
  });
});
