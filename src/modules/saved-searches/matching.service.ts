// Matching listing events against saved searches (issue 12 item 2; docs/saved-searches.md "Matching").
// Two steps: the searches' own indexes name the candidates (matching.repository.ts findCandidateSearches), then each candidate search is
// confirmed by the search engine's compiled WHERE (compileStoredSearch, stored with each search: matching.forms.ts)
// over just the event's listings, so a match
// means exactly "running the search now finds this listing" — no second matcher restating the criteria.
// Confirmation and storage are one statement per batch of events (searches grouped by shape: matching.confirm.ts).
// Matches are stored one row per (search, event); a retried job inserts nothing twice. The owners' in-app
// notifications are written with them (delivery.notify.ts); Instant emails go to a delivery job.
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../platform/deps.js';
import { lockUnmatchedEvents, markEventsMatched } from '../listings/index.js';
import { DELIVER_BATCH, deliverMatchesTask } from './delivery.tasks.js';
import { findCandidateSearches, type Candidate } from './matching.repository.js';
import { confirmedPairs, type ShapedCandidate } from './matching.confirm.js';
import {
  matchFormOf,
  matchFormVersion,
  rememberShape,
  shapesByIds,
  storeCompiledForms,
  type CompiledForm,
} from './matching.forms.js';
import { findSearchForms, insertMatches, storedCriteriaOf, type SearchForm } from './saved-searches.repository.js';
import { listingCards } from './delivery.email.js';
import { notifyOwners } from './delivery.notify.js';

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
  /** A delivery job emails it to the search's Instant contacts. */
  awaits_email: boolean;
}

/** What delivering a candidate search's matches needs (read with its match form). */
type SearchDelivery = Pick<SearchForm, 'created_by' | 'title' | 'instant'>;

/**
 * Matches these listing events (ids from listing_events) and stores the matches; returns the new ones. An event is
 * matched once: it is locked and marked `matched_at` in the transaction that stores its matches, so a retried or
 * duplicated job finds it done and writes nothing (it would otherwise see the listing's later state).
 * `chunkRows` events per transaction (the task's, ADR 0039): a job's matches and their notifications are written
 * in several commits, so on the embedded database requests wait for one chunk, never for the whole job.
 */
export async function matchEvents(
  deps: Deps,
  eventIds: readonly string[],
  chunkRows: number,
): Promise<{ outcome: MatchOutcome; inserted: MatchedEvent[] }> {
  const outcome: MatchOutcome = { events: 0, matches: 0 };
  const inserted: MatchedEvent[] = [];
  for (let i = 0; i < eventIds.length; i += chunkRows) {
    const chunk = await matchChunk(deps, eventIds.slice(i, i + chunkRows));
    outcome.events += chunk.outcome.events;
    outcome.matches += chunk.outcome.matches;
    inserted.push(...chunk.inserted);
  }
  return { outcome, inserted };
}

/** One transaction of `matchEvents`. */
async function matchChunk(
  deps: Deps,
  eventIds: readonly string[],
): Promise<{ outcome: MatchOutcome; inserted: MatchedEvent[] }> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const events = await lockUnmatchedEvents(trx, eventIds);
    if (events.length === 0)
      return { outcome: { events: 0, matches: 0 }, inserted: [], lags: [], compiled: [], notified: 0, emailing: 0 };
    const inTrx = { ...deps, db: trx };
    const listings = [...new Set(events.map((event) => event.listing))];
    const { shaped, compiled, delivery } = await formCandidates(inTrx, await findCandidateSearches(trx, listings));
    const now = deps.clock.now();
    const pairs = await confirmedPairs(trx, shaped, now);
    // Each confirmed (search, listing) pair matches every event of that listing in the batch. The pairs come back
    // and go in again as arrays: joined to the events inside one statement, the planner (expecting a few pairs)
    // compared every pair with every event — 8 million comparisons for a job of 500 events.
    const eventsOf = new Map<string, typeof events>();
    for (const event of events) eventsOf.set(event.listing, [...(eventsOf.get(event.listing) ?? []), event]);
    const matches = pairs.flatMap((pair) =>
      (eventsOf.get(pair.listing) ?? []).map((event) => ({
        saved_search: pair.saved_search,
        event: event.id,
        listing: event.listing,
        event_type: event.type,
        event_at: event.created_text,
        awaits_email: delivery.get(pair.saved_search)!.instant,
      })),
    );
    const found = matches.length;
    const inserted: MatchedEvent[] = await insertMatches(trx, matches, now);
    await markEventsMatched(
      trx,
      events.map((event) => event.id),
      now,
    );
    const { notified, emailing } = await deliverWithMatches(inTrx, trx, inserted, delivery);
    const lags = events.map((event) => (now.getTime() - event.created_at.getTime()) / 1000);
    return { outcome: { events: events.length, matches: found }, inserted, lags, compiled, notified, emailing };
  });
  // Forms compiled for lack of a current one are stored for the next jobs, after the matches are committed.
  await storeCompiledForms(deps.db, result.compiled);
  // Counted once committed (a rolled-back run is retried and counted then).
  deps.metrics.alertEventsMatched.inc(result.outcome.events);
  for (const lag of result.lags) deps.metrics.alertMatchingLag.observe(Math.max(0, lag));
  for (const match of result.inserted) deps.metrics.alertMatches.inc({ event_type: match.event_type });
  deps.metrics.alertNotifications.inc(result.notified);
  return { outcome: result.outcome, inserted: result.inserted };
}

/**
 * What the match job delivers in its own transaction: the owners' notifications (delivery.notify.ts), and a
 * delivery job per 500 matches of searches with an Instant contact, which emails them (`notified`: it does not
 * notify again). The notifications are the last writes: their counter locks are held until commit.
 */
async function deliverWithMatches(
  deps: Deps,
  trx: Transaction<DB>,
  inserted: readonly MatchedEvent[],
  delivery: ReadonlyMap<string, SearchDelivery>,
): Promise<{ notified: number; emailing: number }> {
  const emailing = inserted.filter((match) => match.awaits_email);
  const batches: { matches: string[]; notified: true }[] = [];
  for (let i = 0; i < emailing.length; i += DELIVER_BATCH)
    batches.push({ matches: emailing.slice(i, i + DELIVER_BATCH).map((match) => match.id), notified: true });
  await deps.queue.enqueueMany(trx, deliverMatchesTask, batches);
  const cards = new Map(
    (await listingCards(trx, deps.config, [...new Set(inserted.map((match) => match.listing))])).map((card) => [
      card.id,
      card,
    ]),
  );
  const toNotify = inserted.map((match) => {
    const { created_by: owner, title } = delivery.get(match.saved_search)!;
    return { ...match, owner, title };
  });
  return { notified: await notifyOwners(trx, deps, toNotify, cards), emailing: emailing.length };
}

/**
 * Each candidate search with its stored match form (matching.forms.ts) and its candidate listings; a search whose
 * form is missing or retired is compiled here by the engine (returned, to be stored after the job's transaction).
 * A search that can no longer run (its form is null) matches nothing, as running it finds nothing.
 */
async function formCandidates(
  deps: Deps,
  candidates: readonly Candidate[],
): Promise<{ shaped: ShapedCandidate[]; compiled: CompiledForm[]; delivery: Map<string, SearchDelivery> }> {
  const listingsOf = new Map<string, string[]>();
  for (const { saved_search: search, listing } of candidates) {
    const listings = listingsOf.get(search);
    if (listings) listings.push(listing);
    else listingsOf.set(search, [listing]);
  }
  const compiled: CompiledForm[] = [];
  const formed: { search: string; shape: string; values: (string | null)[] }[] = [];
  const delivery = new Map<string, SearchDelivery>();
  for (const row of await findSearchForms(deps.db, [...listingsOf.keys()], matchFormVersion(deps.db))) {
    delivery.set(row.id, { created_by: row.created_by, title: row.title, instant: row.instant });
    if (row.fresh) {
      if (row.shape !== null) formed.push({ search: row.id, shape: row.shape, values: row.values! });
      continue;
    }
    const form = matchFormOf(
      deps.db,
      storedCriteriaOf({ criteria: row.criteria!, brands: row.brands!, boundaries: row.boundaries! }),
    );
    compiled.push({ search: row.id, updatedAt: row.updated_at, form });
    if (form) formed.push({ search: row.id, shape: rememberShape(form), values: form.values });
  }
  const shapes = await shapesByIds(deps.db, [...new Set(formed.map((entry) => entry.shape))]);
  const shaped = formed.map(({ search, shape, values }) => {
    const { text, nowParams } = shapes.get(shape)!;
    return { search, text, nowParams, values, listings: listingsOf.get(search)! };
  });
  return { shaped, compiled, delivery };
}
