// A lock file so two processes never open the same embedded data directory (PGlite would let them, and
// corrupt it). The file holds the owner's pid; a lock left by a process that died is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

export interface Lock {
  release(): void;
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

export function acquireLock(file: string): Lock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          try {
            unlinkSync(file);
          } catch {
            // already gone: nothing to release
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) throw new DataDirLockedError(file, owner);
      unlinkSync(file); // stale: its process is gone
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
