// The database work of the attempts a delivery worker runs side by side, one statement for each turn's reads and
// one for its delivered records instead of one per attempt (src/db/coalesce.ts; the same as push.batching.ts).
// Each attempt still gets its own answer, so an attempt acts only while its delivery is pending at the expected
// attempt: a repeated job sends at most a duplicate, never an extra retry.
import { coalescedLookup, coalescedMoves } from '../../db/coalesce.js';
import * as repo from './deliveries.repository.js';

/** What one attempt needs (repo.deliveriesForAttempt), read with the other attempts of this turn. */
export const deliveryForAttempt = coalescedLookup(repo.deliveriesForAttempt);

/** Records a delivered attempt with the others of this turn; false when another run moved the delivery on. */
export const recordDelivered = coalescedMoves(
  repo.recordDelivered,
  (attempt: repo.DeliveredAttempt) => attempt.delivery,
);
