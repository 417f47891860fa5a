// The database work of the pushes a worker runs side by side, in one statement each instead of one per push
// (src/db/coalesce.ts). A push worker fetches a batch of 50 jobs and starts them all in the same turn of the
// event loop (jobs/queue.ts), so their reads of the attempt arrive together and go as one query; their records of
// a sent push come back as the providers answer and go together with whatever else arrived in the same turn.
// Each caller still gets its own answer (its row, whether its row moved on), so a push's idempotency (acts only
// while its row is pending at the expected attempt) is unchanged.
import { coalescedLookup, coalescedMoves } from '../../db/coalesce.js';
import * as repo from './push.repository.js';

/** Everything one attempt needs (repo.deliveriesForAttempt), read with the other pushes of this turn. */
export const deliveryForAttempt = coalescedLookup(repo.deliveriesForAttempt);

/** Records a sent push (repo.markSent) with the others of this turn; false when another run moved the row on. */
export const markSent = coalescedMoves(repo.markSent, (push: repo.SentPush) => push.id);
