// A lock file so two processes never open the same embedded data directory (PGlite would let them, and
// corrupt it). The file names its owner by more than a pid: a pid is reused, and a container's server is pid 1
// after every restart, so "pid 1 is alive" proves nothing. The owner is alive only if a process with that pid
// runs now AND started at the recorded moment (Linux: /proc/<pid>/stat) on the same boot; a lock that names
// this very process but that this process did not take is stale too. A stale lock is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export interface Lock {
  release(): void;
}

interface Owner {
  pid: number;
  /** /proc/sys/kernel/random/boot_id where available. */
  boot: string | null;
  /** Process start time in clock ticks since boot (/proc/<pid>/stat field 22) where available. */
  started: string | null;
  /** Random per acquisition: tells this process's own locks from a dead predecessor's with the same pid. */
  token: string;
}

export class DataDirLockedError extends Error {
  constructor(file: string, pid: number) {
    super(
      `The embedded database is already open in process ${pid} (lock file ${file}). ` +
        'Stop that process, or point DATA_DIR at another directory, or use DATABASE_URL to share a PostgreSQL server.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** The lock file of an embedded data directory. */
export function dataDirLockFile(dataDir: string): string {
  return join(dataDir, 'gable.lock');
}

/**
 * Throws DataDirLockedError when a live process holds `file`, without taking it: a command checks this before it
 * loads the server's modules, so that beside a running embedded server it answers at once.
 */
export function assertUnlocked(file: string): void {
  let owner: Owner | null;
  try {
    owner = readOwner(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (owner && isAlive(owner)) throw new DataDirLockedError(file, owner.pid);
}

/** Tokens of the locks this process holds now. */
const heldHere = new Set<string>();

export function acquireLock(file: string): Lock {
  for (let attempt = 0; attempt < 2; attempt++) {
    const me: Owner = {
      pid: process.pid,
      boot: bootId(),
      started: startTicks(process.pid),
      token: randomBytes(16).toString('hex'),
    };
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      heldHere.add(me.token);
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          heldHere.delete(me.token);
          try {
            unlinkSync(file);
          } catch {
            // already gone: nothing to release
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(file);
      if (owner && isAlive(owner)) throw new DataDirLockedError(file, owner.pid);
      unlinkSync(file); // stale: its process is gone
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}

function readOwner(file: string): Owner | null {
  const text = readFileSync(file, 'utf8').trim();
  if (/^\d+$/.test(text)) return { pid: Number(text), boot: null, started: null, token: '' }; // an older server's lock
  try {
    const parsed = JSON.parse(text) as Partial<Owner>;
    return Number.isInteger(parsed.pid) && parsed.pid! > 0
      ? { pid: parsed.pid!, boot: parsed.boot ?? null, started: parsed.started ?? null, token: parsed.token ?? '' }
      : null;
  } catch {
    return null; // unreadable (a crash while writing it): nobody can be shown to hold it
  }
}

function isAlive(owner: Owner): boolean {
  if (owner.pid === process.pid) return heldHere.has(owner.token);
  if (owner.boot && owner.boot !== bootId()) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A live pid: the recorded owner only if it started when the owner did (else the pid was reused).
  const started = startTicks(owner.pid);
  return owner.started === null || started === null || started === owner.started;
}

function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

function startTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}
