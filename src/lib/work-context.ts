// What the process is working on — a route's request, a job, a command — carried through its async calls, so code
// far below (the database's slow-statement report) can say whose work it was without being passed it.
// On Node 20 this makes V8 call Node's promise hooks for every promise of the process (~1.5 µs each on these
// machines), so the paths every request takes (bearer check, pooled statements) are written with few promises.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Work {
  readonly kind: 'route' | 'job' | 'command';
  /** `GET /users/self`, `triggers.brand-sweep`, `seed demo`. */
  readonly name: string;
}

const storage = new AsyncLocalStorage<Work>();

/** Runs `fn` (and everything it starts) as `work`. */
export function runAsWork<T>(work: Work, fn: () => T): T {
  return storage.run(work, fn);
}

/** The work the caller is part of, or null outside any. */
export function currentWork(): Work | null {
  return storage.getStore() ?? null;
}
