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
import { compileWhere, confirmedPairs, type CompiledCandidate, type CompiledWhere } from './matching.confirm.js';
import { findStoredSearches, insertMatches, type StoredSearch } from './saved-searches.repository.js';
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
      // Stored with each match as is (microseconds: a JS Date would keep milliseconds).
      .select(sql<string>`created_at::text`.as('created_text'))
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
    // Each confirmed (search, listing) pair matches every event of that listing in the batch. The pairs come back
    // and go in again as arrays: joined to the events inside one statement, the planner (expecting a few pairs)
    // compared every pair with every event — 8 million comparisons for a job of 500 events.
    const eventsOf = new Map<string, typeof events>();
    for (const event of events) eventsOf.set(event.listing, [...(eventsOf.get(event.listing) ?? []), event]);
    const pairs = confirmed ? (await confirmed.execute(trx)).rows : [];
    const matches = pairs.flatMap((pair) =>
      (eventsOf.get(pair.listing) ?? []).map((event) => ({ saved_search: pair.saved_search, event: event.id, listing: event.listing, event_type: event.type, event_at: event.created_text })),
    );
    const found = matches.length;
    const inserted: MatchedEvent[] = await insertMatches(trx, matches, now);
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
 * Compiled WHEREs kept per process, by search id, with the criteria they were compiled from: a job of 500 events
 * has thousands of candidate searches, and the same searches come back job after job (compiling them was a third
 * of a job on the bench). Kept only when the WHERE depends on nothing but the stored criteria: not for searches
 * naming brands or boundaries (the engine reads their agents and rings from the database at each run) nor for a
 * WHERE that binds a time ("now"). Changed criteria no longer equal the kept ones, so the entry is compiled again.
 */
const compiledWheres = new Map<string, { criteria: string; where: CompiledWhere | null }>();
const MAX_CACHED_WHERES = 100_000;

/**
 * A search that can no longer run (a boundary it names was deleted: the run answers 400) matches nothing, as
 * running it finds nothing.
 */
async function compiledOrNull(deps: Deps, search: StoredSearch): Promise<CompiledWhere | null> {
  const criteria = storedCriteriaOf(search);
  const cacheable = search.brands.length === 0 && search.boundaries.length === 0;
  const key = cacheable ? JSON.stringify(criteria) : null;
  const cached = key === null ? undefined : compiledWheres.get(search.id);
  if (cached && cached.criteria === key) return cached.where;
  let where: CompiledWhere | null;
  try {
    where = compileWhere(deps.db, await compileStoredSearch(deps, criteria));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    where = null;
  }
  if (key !== null && !where?.timed) {
    // The oldest entry makes room (a Map iterates in insertion order): emptying the whole map when full made every
    // job after it compile all its searches again, a storm each time 100,000 searches had been kept.
    compiledWheres.delete(search.id);
    if (compiledWheres.size >= MAX_CACHED_WHERES) compiledWheres.delete(compiledWheres.keys().next().value!);
    compiledWheres.set(search.id, { criteria: key, where });
  }
  return where;
}
