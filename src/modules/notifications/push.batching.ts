// The database work of the pushes a worker runs side by side, in one statement each instead of one per push
// (src/db/coalesce.ts). A push worker fetches a batch of 50 jobs and starts them all in the same turn of the
// event loop (jobs/queue.ts), so their reads of the attempt arrive together and go as one query; their records of
// a sent push come back as the providers answer and go together with whatever else arrived in the same turn.
// Each caller still gets its own answer (its row, whether its row moved on), so a push's idempotency (acts only
// while its row is pending at the expected attempt) is unchanged.
import type { Kysely } from 'kysely';
import { coalesced } from '../../db/coalesce.js';
import type { DB } from '../../db/types.js';
import * as repo from './push.repository.js';

const readAttempts = coalesced<string, repo.AttemptRow | undefined>(async (db, ids) => {
  const rows = new Map((await repo.deliveriesForAttempt(db, [...new Set(ids)])).map((row) => [row.id, row]));
  return (id) => rows.get(id);
});

const recordSent = coalesced<repo.SentPush, boolean>(async (db, pushes) => {
  const moved = await repo.markSent(db, pushes);
  // One row moves on once: the same push twice in a statement (a repeated job) is sent for the first only.
  return (push) => moved.delete(push.id);
});

/** Everything one attempt needs (repo.deliveriesForAttempt), read with the other pushes of this turn. */
export function deliveryForAttempt(db: Kysely<DB>, id: string): Promise<repo.AttemptRow | undefined> {
  return readAttempts(db, id);
}

/** Records a sent push (repo.markSent) with the others of this turn; false when another run moved the row on. */
export function markSent(db: Kysely<DB>, push: repo.SentPush): Promise<boolean> {
  return recordSent(db, push);
}
