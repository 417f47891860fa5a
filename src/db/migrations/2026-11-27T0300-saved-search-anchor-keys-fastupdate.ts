// Matching reads saved_searches_anchor_keys_idx once per listing of a batch (matching.candidates.ts). With GIN's
// default fastupdate, new keys wait in the index's pending list until a vacuum, and every lookup scans that whole
// list: on the bench (20,000 searches just saved, all pending) each lookup took 5 ms instead of 0.01 ms and the
// candidate statement of a 500-event job 2.4 s instead of 0.2 s. Searches are saved at human pace, so writing
// their keys straight into the index costs nothing that matters; the list already pending is merged now.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter index saved_searches_anchor_keys_idx set (fastupdate = off)`.execute(db);
  await sql`select gin_clean_pending_list('saved_searches_anchor_keys_idx'::regclass)`.execute(db);
}
