// The database work of the pushes a worker runs side by side, in one statement each instead of one per push.
// A push worker fetches a batch of 50 jobs and starts them all in the same turn of the event loop (jobs/queue.ts),
// so their reads of the attempt arrive together and go as one query; their records of a sent push come back as
// the providers answer and go together with whatever else arrived in the same turn. On the loaded bench machine
// the fan-out was bound by these two statements per push, not by the network or the encryption.
// Each caller still gets its own answer (its row, whether its row moved on), so a push's idempotency (acts only
// while its row is pending at the expected attempt) is unchanged. When a combined statement fails, each call is
// run again alone, so a push fails (and is retried by its job) only for its own input, never for a neighbour's.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import * as repo from './push.repository.js';

/** Collects calls made in one turn of the event loop and runs them as one. */
class Coalescer<In, Out> {
  private pending: { input: In; resolve: (out: Out) => void; reject: (error: unknown) => void }[] = [];

  constructor(private readonly runAll: (inputs: In[]) => Promise<(input: In) => Out>) {}

  run(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => void this.flush());
      this.pending.push({ input, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const calls = this.pending;
    this.pending = [];
    try {
      const answer = await this.runAll(calls.map((c) => c.input));
      for (const call of calls) call.resolve(answer(call.input));
    } catch (error) {
      if (calls.length === 1) calls[0]!.reject(error);
      else await Promise.all(calls.map((call) => this.runAlone(call)));
    }
  }

  private async runAlone(call: { input: In; resolve: (out: Out) => void; reject: (error: unknown) => void }): Promise<void> {
    try {
      call.resolve((await this.runAll([call.input]))(call.input));
    } catch (error) {
      call.reject(error);
    }
  }
}

interface Batching {
  read: Coalescer<string, repo.AttemptRow | undefined>;
  sent: Coalescer<repo.SentPush, boolean>;
}

const byDatabase = new WeakMap<Kysely<DB>, Batching>();

function batching(db: Kysely<DB>): Batching {
  let found = byDatabase.get(db);
  if (!found) {
    found = {
      read: new Coalescer(async (ids) => {
        const rows = new Map((await repo.deliveriesForAttempt(db, [...new Set(ids)])).map((row) => [row.id, row]));
        return (id) => rows.get(id);
      }),
      sent: new Coalescer(async (pushes) => {
        const moved = await repo.markSent(db, pushes);
        // One row moves on once: the same push twice in a statement (a repeated job) is sent for the first only.
        return (push) => moved.delete(push.id);
      }),
    };
    byDatabase.set(db, found);
  }
  return found;
}

/** Everything one attempt needs (repo.deliveriesForAttempt), read with the other pushes of this turn. */
export function deliveryForAttempt(db: Kysely<DB>, id: string): Promise<repo.AttemptRow | undefined> {
  return batching(db).read.run(id);
}

/** Records a sent push (repo.markSent) with the others of this turn; false when another run moved the row on. */
export function markSent(db: Kysely<DB>, push: repo.SentPush): Promise<boolean> {
  return batching(db).sent.run(push);
}
