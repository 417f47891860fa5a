// The database work of the attempts a delivery worker runs side by side, one statement for each turn's reads and
// one for its delivered records instead of one per attempt (src/db/coalesce.ts; the same as push.batching.ts).
// Each attempt still gets its own answer, so an attempt acts only while its delivery is pending at the expected
// attempt: a repeated job sends at most a duplicate, never an extra retry.
import type { Kysely } from 'kysely';
import { coalesced } from '../../db/coalesce.js';
import type { DB } from '../../db/types.js';
import * as repo from './deliveries.repository.js';

const readAttempts = coalesced<string, repo.AttemptRow | undefined>(async (db, ids) => {
  const rows = new Map((await repo.deliveriesForAttempt(db, [...new Set(ids)])).map((row) => [row.id, row]));
  return (id) => rows.get(id);
});

const recordAttempts = coalesced<repo.DeliveredAttempt, boolean>(async (db, attempts) => {
  const moved = await repo.recordDelivered(db, attempts);
  // A delivery moves on once: the same attempt twice in a statement (a repeated job) is recorded for the first only.
  return (attempt) => moved.delete(attempt.delivery);
});

/** What one attempt needs (repo.deliveriesForAttempt), read with the other attempts of this turn. */
export function deliveryForAttempt(db: Kysely<DB>, id: string): Promise<repo.AttemptRow | undefined> {
  return readAttempts(db, id);
}

/** Records a delivered attempt with the others of this turn; false when another run moved the delivery on. */
export function recordDelivered(db: Kysely<DB>, attempt: repo.DeliveredAttempt): Promise<boolean> {
  return recordAttempts(db, attempt);
}
