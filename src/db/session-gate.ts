// The embedded database's one session, handed out requests first (ADR 0039). PGlite is a single session, so every
// transaction waits for the one before it; with a plain first-come queue a request that arrives behind three job
// transactions waits for all three. Here a waiting request goes before every waiting job, so it waits for at most
// the transaction in progress. A job is never starved: once it has waited `backgroundMaxWaitMs`, it goes first.
import type pg from 'pg';
import { currentWork } from '../lib/work-context.js';

export type SessionPriority = 'request' | 'background';

interface Waiter {
  readonly since: number;
  readonly grant: () => void;
}

export class SessionGate {
  private busy = false;
  private readonly waiting: Record<SessionPriority, Waiter[]> = { request: [], background: [] };

  constructor(
    private readonly backgroundMaxWaitMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Resolves when the caller holds the session; it must call `leave()` exactly once afterwards. */
  enter(priority: SessionPriority): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiting[priority].push({ since: this.now(), grant }));
  }

  leave(): void {
    const next = this.next();
    if (next) next.grant();
    else this.busy = false;
  }

  private next(): Waiter | undefined {
    const oldestJob = this.waiting.background[0];
    if (oldestJob && this.now() - oldestJob.since >= this.backgroundMaxWaitMs) return this.waiting.background.shift();
    return this.waiting.request.shift() ?? this.waiting.background.shift();
  }
}

/** A request's statements (an HTTP route's work) go first; jobs, daemons, the queue's own polling and commands wait. */
export function currentPriority(): SessionPriority {
  return currentWork()?.kind === 'route' ? 'request' : 'background';
}

/** The pool's `connect`, through the gate: the connection is checked out only while the caller holds the session. */
export function gatedConnect(pool: pg.Pool, gate: SessionGate): () => Promise<pg.PoolClient> {
  return async () => {
    await gate.enter(currentPriority());
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      gate.leave();
      throw error;
    }
    // pg-pool sets a fresh `release` on every checkout, so wrapping this one affects this checkout only.
    const release = client.release.bind(client);
    client.release = (error?: Error | boolean) => {
      release(error);
      gate.leave();
    };
    return client;
  };
}
