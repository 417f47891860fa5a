// Matching listing events against saved searches (issue 12 item 2; docs/saved-searches.md "Matching").
// Two steps: the searches' own indexes name the candidates (matching.candidates.ts), then each candidate search is
// confirmed by the search engine's compiled WHERE (compileStoredSearch) over just the event's listings, so a match
// means exactly "running the search now finds this listing" — no second matcher restating the criteria.
// Confirmation and storage are one statement per batch of events (searches grouped by shape: matching.confirm.ts).
// Matches are stored one row per (search, event); a retried job inserts nothing twice.
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { compileStoredSearch } from '../listings/search/search.service.js';
import { DELIVER_BATCH, deliverMatchesTask } from './delivery.tasks.js';
import { candidateSearches, type Candidate } from './matching.candidates.js';
import { confirmedPairs, type CompiledCandidate } from './matching.confirm.js';
import { findStoredSearches } from './saved-searches.repository.js';
import { storedCriteriaOf } from './saved-searches.service.js';

export interface MatchOutcome {
  events: number;
  matches: number;
}

export interface MatchedEvent {
  id: string;
  saved_search: string;
  listing: string;
  event: string;
  event_type: string;
}

/**
 * Matches these listing events (ids from listing_events) and stores the matches; returns the new ones. An event is
 * matched once: it is locked and marked `matched_at` in the transaction that stores its matches, so a retried or
 * duplicated job finds it done and writes nothing (it would otherwise see the listing's later state).
 */
export async function matchEvents(deps: Deps, eventIds: readonly string[]): Promise<{ outcome: MatchOutcome; inserted: MatchedEvent[] }> {
  if (eventIds.length === 0) return { outcome: { events: 0, matches: 0 }, inserted: [] };
  const result = await deps.db.transaction().execute(async (trx) => {
    const events = await trx
      .selectFrom('listing_events')
      .select(['id', 'listing', 'type', 'created_at'])
      .where('id', 'in', [...eventIds])
      .where('matched_at', 'is', null)
      .orderBy('id')
      .forUpdate()
      .execute();
    if (events.length === 0) return { outcome: { events: 0, matches: 0 }, inserted: [], lags: [] };
    const inTrx = { ...deps, db: trx };
    const listings = [...new Set(events.map((event) => event.listing))];
    const confirmed = await confirmedPairs(trx, await compileCandidates(inTrx, await candidateSearches(trx, listings)));
    const now = deps.clock.now();
    // One statement for the whole batch: the confirmed pairs joined to their events, stored; a pair already stored
    // (a retried job whose mark was lost) is found but not inserted again.
    const { rows } = confirmed
      ? await sql<MatchedEvent & { found: number }>`
        with events as (select id, listing, type, created_at from listing_events where id = any(${events.map((event) => event.id)}::uuid[])),
        pairs as (
          select c.saved_search, c.listing, e.id as event, e.type as event_type, e.created_at as event_at
          from (${confirmed}) as c join events as e on e.listing = c.listing
        ),
        stored as (
          insert into saved_search_matches (saved_search, listing, event, event_type, event_at, created_at)
          select saved_search, listing, event, event_type, event_at, ${now}::timestamptz from pairs
          on conflict (saved_search, event) do nothing
          returning id, saved_search, listing, event, event_type
        )
        select s.id, s.saved_search, s.listing, s.event, s.event_type, f.found
        from (select count(*)::int as found from pairs) as f left join stored as s on true`.execute(trx)
      : { rows: [] };
    const found = rows[0]?.found ?? 0;
    const inserted: MatchedEvent[] = rows.filter((row) => row.id !== null).map(({ id, saved_search, listing, event, event_type }) => ({ id, saved_search, listing, event, event_type }));
    await trx.updateTable('listing_events').set({ matched_at: now }).where('id', 'in', events.map((event) => event.id)).execute();
    // Delivery (notifications, Instant emails) is committed with the matches it delivers.
    const batches: { matches: string[] }[] = [];
    for (let i = 0; i < inserted.length; i += DELIVER_BATCH) batches.push({ matches: inserted.slice(i, i + DELIVER_BATCH).map((match) => match.id) });
    await deps.queue.enqueueMany(trx, deliverMatchesTask, batches);
    const lags = events.map((event) => (now.getTime() - event.created_at.getTime()) / 1000);
    return { outcome: { events: events.length, matches: found }, inserted, lags };
  });
  // Counted once committed (a rolled-back run is retried and counted then).
  deps.metrics.alertEventsMatched.inc(result.outcome.events);
  for (const lag of result.lags) deps.metrics.alertMatchingLag.observe(Math.max(0, lag));
  for (const match of result.inserted) deps.metrics.alertMatches.inc({ event_type: match.event_type });
  return { outcome: result.outcome, inserted: result.inserted };
}

/** Each candidate search with its compiled WHERE (the engine's, as a run compiles it) and its candidate listings. */
async function compileCandidates(deps: Deps, candidates: readonly Candidate[]): Promise<CompiledCandidate[]> {
  const listingsOf = new Map<string, string[]>();
  for (const { saved_search: search, listing } of candidates) listingsOf.set(search, [...(listingsOf.get(search) ?? []), listing]);
  const compiled: CompiledCandidate[] = [];
  for (const search of await findStoredSearches(deps.db, [...listingsOf.keys()])) {
    const where = await compiledOrNull(deps, search);
    if (where) compiled.push({ search: search.id, where, listings: listingsOf.get(search.id)! });
  }
  return compiled;
}

/**
 * A search that can no longer run (a boundary it names was deleted: the run answers 400) matches nothing, as
 * running it finds nothing.
 */
async function compiledOrNull(deps: Deps, search: Parameters<typeof storedCriteriaOf>[0]) {
  try {
    return await compileStoredSearch(deps, storedCriteriaOf(search));
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}
