// Many callers' statements as one: the calls a worker's jobs make in the same turn of the event loop (a batch of
// jobs fetched together starts together) are collected and run as ONE statement, and each caller gets its own
// answer. On a machine where the database shares the cores, a statement per job — parsed, planned, a round trip
// each — was what bound the push and webhook workers, not the network.
// A combined statement that fails is run again call by call, so a caller fails only for its own input (a
// malformed id in a batch fails that job alone, never its neighbours).
import type { Kysely } from 'kysely';
import type { DB } from './types.js';

/** Runs every input of one turn in one statement; answers a function that picks each input's own result. */
export type RunAll<In, Out> = (db: Kysely<DB>, inputs: In[]) => Promise<(input: In) => Out>;

interface Call<In, Out> {
  input: In;
  resolve: (out: Out) => void;
  reject: (error: unknown) => void;
}

class Coalescer<In, Out> {
  private pending: Call<In, Out>[] = [];

  constructor(
    private readonly db: Kysely<DB>,
    private readonly runAll: RunAll<In, Out>,
  ) {}

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
      const answer = await this.runAll(
        this.db,
        calls.map((c) => c.input),
      );
      for (const call of calls) call.resolve(answer(call.input));
    } catch (error) {
      if (calls.length === 1) calls[0]!.reject(error);
      else await Promise.all(calls.map((call) => this.runAlone(call)));
    }
  }

  private async runAlone(call: Call<In, Out>): Promise<void> {
    try {
      call.resolve((await this.runAll(this.db, [call.input]))(call.input));
    } catch (error) {
      call.reject(error);
    }
  }
}

/**
 * A function of (database, input) whose calls of one turn run together through `runAll` (one collector per
 * database: a transaction or another database never shares a statement with the pool's callers).
 */
export function coalesced<In, Out>(runAll: RunAll<In, Out>): (db: Kysely<DB>, input: In) => Promise<Out> {
  const byDatabase = new WeakMap<Kysely<DB>, Coalescer<In, Out>>();
  return (db, input) => {
    let coalescer = byDatabase.get(db);
    if (!coalescer) {
      coalescer = new Coalescer(db, runAll);
      byDatabase.set(db, coalescer);
    }
    return coalescer.run(input);
  };
}

/** Rows read by id, one statement per turn (`read` answers the rows found); each caller gets its own or none. */
export function coalescedLookup<Row extends { id: string }>(
  read: (db: Kysely<DB>, ids: string[]) => Promise<Row[]>,
): (db: Kysely<DB>, id: string) => Promise<Row | undefined> {
  return coalesced<string, Row | undefined>(async (db, ids) => {
    const rows = new Map((await read(db, [...new Set(ids)])).map((row) => [row.id, row]));
    return (id) => rows.get(id);
  });
}

/**
 * Writes that move rows on, one statement per turn (`write` answers the ids it moved): each caller learns whether
 * its row moved. A row moves once, so the same id twice in a turn (a repeated job) is true for the first only.
 */
export function coalescedMoves<In>(
  write: (db: Kysely<DB>, inputs: In[]) => Promise<Set<string>>,
  idOf: (input: In) => string,
): (db: Kysely<DB>, input: In) => Promise<boolean> {
  return coalesced<In, boolean>(async (db, inputs) => {
    const moved = await write(db, inputs);
    return (input) => moved.delete(idOf(input));
  });
}
