// Storing a job's matches (issue 12 benchmark; ADR 0030, docs/saved-searches.md "Matching"). At 100,000 searches
// over 1,000,000 listings a job of 500 events stores ~10,000 matches, and `EXPLAIN ANALYZE` of that insert gave
// 1.5 s of its 2.4 s to the three foreign-key triggers (one look-up per row and key, and `for key share` on every
// saved search row matched, a write to its page). The rows come from the match job only, which writes each from an
// event it holds locked and a search it just read in the same transaction; nothing deletes saved searches (they
// are soft-deleted), listings or listing events. The keys are dropped; the unique (search, event) key stays.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table saved_search_matches
      drop constraint saved_search_matches_saved_search_fkey,
      drop constraint saved_search_matches_listing_fkey,
      drop constraint saved_search_matches_event_fkey
  `.execute(db);
}
