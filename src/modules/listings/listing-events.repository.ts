// SQL of listing events read and marked by saved-search matching (the listings module owns listing_events; the
// events are written with the listings, listings.repository.ts insertEvents).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** An event as the match job reads it. */
export interface UnmatchedEvent {
  id: string;
  listing: string;
  type: string;
  created_at: Date;
  /** created_at as PostgreSQL's text: stored with each match as is (microseconds: a JS Date would keep milliseconds). */
  created_text: string;
}

/**
 * The events of these ids not matched yet, in id order, locked for the caller's transaction (which matches them and
 * marks them `matched_at`): a retried or duplicated job waits, then finds them marked and reads nothing.
 */
export async function lockUnmatchedEvents(db: Kysely<DB>, ids: readonly string[]): Promise<UnmatchedEvent[]> {
  return await db
    .selectFrom('listing_events')
    .select(['id', 'listing', 'type', 'created_at'])
    // Stored with each match as is (microseconds: a JS Date would keep milliseconds).
    .select(sql<string>`created_at::text`.as('created_text'))
    .where('id', 'in', [...ids])
    .where('matched_at', 'is', null)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Marks these events matched at `at` (saved-search matching is done with them). */
export async function markEventsMatched(db: Kysely<DB>, ids: readonly string[], at: Date): Promise<void> {
  await db
    .updateTable('listing_events')
    .set({ matched_at: at })
    .where('id', 'in', [...ids])
    .execute();
}
