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

  /** The owner the lock file names now. */
  const ownerOnFile = () =>
    JSON.parse(readFileSync(file, 'utf8')) as { pid: number; started: string | null; token: string };

  it('takes over a lock naming this very pid that this process did not take (a container restarted as pid 1)', () => {
    // What a killed server left: same pid as ours (containers start the server as pid 1 every time), another run.
    writeFileSync(file, JSON.stringify({ pid: process.pid, boot: null, started: null, token: 'an-earlier-run' }));
    const lock = acquireLock(file);
    expect(ownerOnFile()).toMatchObject({ pid: process.pid, token: expect.not.stringMatching(/^an-earlier-run$/) });
    // Taken for real: while this process holds it, the same pid is no reason to let a second holder in.
    expect(() => acquireLock(file)).toThrow(DataDirLockedError);
    lock.release();

    writeFileSync(file, String(process.pid)); // the same, in the lock format of older servers
    const again = acquireLock(file);
    expect(ownerOnFile()).toMatchObject({ pid: process.pid, token: expect.stringMatching(/^[0-9a-f]{32}$/) });
    again.release();
    expect(existsSync(file)).toBe(false);
  });

  it('takes over a lock whose pid lives but belongs to a process started later (pid reused)', () => {
    // The parent process lives. A lock naming it with its real start time is its lock ...
    writeFileSync(file, JSON.stringify({ pid: process.ppid, boot: null, started: parentStartTicks(), token: 'x' }));
    expect(() => acquireLock(file)).toThrow(DataDirLockedError);
    // ... one naming it with another start time was left by an earlier process that had the same pid.
    writeFileSync(file, JSON.stringify({ pid: process.ppid, boot: null, started: '1', token: 'x' }));
    const lock = acquireLock(file);
    expect(ownerOnFile().pid).toBe(process.pid);
    lock.release();
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

/** The parent's start time in clock ticks since boot (/proc/<pid>/stat field 22), as the lock records it. */
function parentStartTicks(): string {
  const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}
