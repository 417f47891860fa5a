// Matching end to end: ingest records events and enqueues the match job in the same transaction; the job stores one
// match per (search, event), and running it again stores nothing twice. Candidates come from the searches' own
// index (their polygon box, anchor keys, boundaries, brands): searches anchored elsewhere are never read.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { queuedJobs, runQueuedJobs } from '../../../test/helpers/jobs.js';
import { crmUser } from '../../../test/helpers/contacts.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { findCandidateSearches } from './matching.repository.js';
import { matchEvents } from './matching.service.js';
import { matchEventsTask } from './matching.tasks.js';
import { around, saveSearch } from './matching.test-support.js';

describe('matching listing events', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let owner: Awaited<ReturnType<typeof crmUser>>;
  let feed: Record<string, string>;
  const save = (criteria: object) => saveSearch(t.app, owner, criteria);
  const ingest = async (records: unknown[]) => {
    const res = await t.app.inject({ method: 'POST', url: '/mls/MATCH/listings', headers: feed, payload: records });
    expect(res.statusCode, res.body).toBe(200);
  };
  const matchesOf = (search: string) =>
    t.deps.db
      .selectFrom('saved_search_matches')
      .select(['listing', 'event', 'event_type'])
      .where('saved_search', '=', search)
      .orderBy('event_type')
      .execute();

  beforeAll(async () => {
    owner = await crmUser(t.deps);
    feed = await clientHeaders(t.deps);
  });

  it('ingest enqueues matching with its events; the job stores each match once, also when run again', async () => {
    const near = await save({ points: around(-96.81, 32.81), maximum_price: 500_000 });
    const cheap = await save({ points: around(-96.81, 32.81), maximum_price: 400_000 });
    const byAgent = await save({ agents: ['AG-2'], minimum_bedrooms: 3 });
    const far = await save({ points: around(-80, 40) });

    await ingest([sampleListing('M-1')]);
    const jobs = await queuedJobs(t.deps, [matchEventsTask.name]);
    expect(jobs).toHaveLength(1);
    expect((jobs[0]!.data as { events: string[] }).events).toHaveLength(1);
    await runQueuedJobs(t.deps, [matchEventsTask.name]);

    expect(await matchesOf(near)).toMatchObject([{ event_type: 'BecameAvailable' }]);
    expect(await matchesOf(byAgent)).toMatchObject([{ event_type: 'BecameAvailable' }]);
    expect(await matchesOf(cheap)).toEqual([]);
    expect(await matchesOf(far)).toEqual([]);

    // A price drop into the cheaper search's range: both polygon searches match the PriceDropped event.
    t.clock.advance(60);
    await ingest([sampleListing('M-1', { price: 390_000 })]);
    await runQueuedJobs(t.deps, [matchEventsTask.name]);
    expect((await matchesOf(cheap)).map((m) => m.event_type)).toEqual(['PriceDropped']);
    expect((await matchesOf(near)).map((m) => m.event_type)).toEqual(['BecameAvailable', 'PriceDropped']);

    // Each match notified its owner in the job's transaction (no delivery job ran).
    const feedSize = async () =>
      Number(
        (
          await t.deps.db
            .selectFrom('notification_recipients')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('user', '=', owner.user)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const stored = async () =>
      Number(
        (
          await t.deps.db
            .selectFrom('saved_search_matches')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await stored()).toBe(5); // near and byAgent twice, cheap once
    expect(await feedSize()).toBe(5);

    // A retried job (same events) writes nothing new.
    const events = await t.deps.db.selectFrom('listing_events').select(['id', 'matched_at']).execute();
    expect(events.every((event) => event.matched_at !== null)).toBe(true);
    // Two events per transaction: the job's chunks each skip what an earlier run marked.
    const again = await matchEvents(
      t.deps,
      events.map((event) => event.id),
      2,
    );
    expect(again).toEqual({ outcome: { events: 0, matches: 0 }, inserted: [] });
    // Even a forgotten mark does not duplicate a match: (search, event) is unique.
    await t.deps.db.updateTable('listing_events').set({ matched_at: null }).execute();
    const forced = await matchEvents(
      t.deps,
      events.map((event) => event.id),
      2,
    );
    expect(forced.outcome.matches).toBeGreaterThan(0);
    expect(forced.inserted.filter((match) => match.saved_search === near)).toEqual([]);
    expect(await matchesOf(near)).toHaveLength(2);
    // and notifies nobody twice: only what it stored anew is announced (the listing's later price makes the
    // first event match `cheap` too, once).
    expect(forced.inserted.map((match) => match.saved_search)).toEqual([cheap]);
    expect(await stored()).toBe(6);
    expect(await feedSize()).toBe(6);

    // Events and matches get version-7 uuids (time first, so a job's keys sit side by side in the indexes).
    const matches = await t.deps.db.selectFrom('saved_search_matches').select('id').execute();
    for (const { id } of [...events, ...matches])
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const stamp = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(stamp(matches[0]!.id) - Date.now())).toBeLessThan(3_600_000);
  });

  it('candidates come from the index: a search anchored elsewhere is not a candidate; a deleted search never matches', async () => {
    const here = await save({ points: around(-96.5, 33.2) });
    const elsewhere = await save({ points: around(-120, 45), listing_statuses: ['Active'] });
    const otherAgent = await save({ list_agents: ['NOBODY'] });
    const gone = await save({ points: around(-96.5, 33.2) });
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/brands/${owner.brand}/saved-searches/${gone}`,
          headers: owner.bare,
        })
      ).statusCode,
    ).toBe(204);

    await ingest([
      sampleListing('M-2', {
        property: {
          ...(sampleListing('x').property as object),
          address: { city: 'Plano', state: 'TX', location: { latitude: 33.2, longitude: -96.5 } },
        },
      }),
    ]);
    const listing = await t.deps.db
      .selectFrom('listings')
      .select('id')
      .where('mls_number', '=', 'M-2')
      .executeTakeFirstOrThrow();
    const candidates = (await findCandidateSearches(t.deps.db, [listing.id])).map((c) => c.saved_search);
    expect(candidates).toContain(here);
    expect(candidates).not.toContain(elsewhere);
    expect(candidates).not.toContain(otherAgent);
    expect(candidates).not.toContain(gone);

    await runQueuedJobs(t.deps, [matchEventsTask.name]);
    expect(await matchesOf(here)).toHaveLength(1);
    expect(await matchesOf(gone)).toEqual([]);
  });

  it('matching follows the criteria after a PATCH (the stored compiled WHERE is replaced with the criteria)', async () => {
    // A criterion only the engine's WHERE tests (not the candidates' cheap checks), so the stored WHERE decides.
    const id = await save({ points: around(-96.81, 32.81), minimum_square_meters: 1 });
    await ingest([sampleListing('M-3', { price: 450_000 })]);
    await runQueuedJobs(t.deps, [matchEventsTask.name]);
    expect((await matchesOf(id)).map((m) => m.event_type)).toEqual(['BecameAvailable']);

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/brands/${owner.brand}/saved-searches/${id}`,
      headers: owner.bare,
      payload: { minimum_square_meters: 100_000 },
    });
    expect(res.statusCode, res.body).toBe(200);
    t.clock.advance(60);
    await ingest([sampleListing('M-3', { price: 420_000 })]);
    await runQueuedJobs(t.deps, [matchEventsTask.name]);
    expect((await matchesOf(id)).map((m) => m.event_type)).toEqual(['BecameAvailable']);

    const back = await t.app.inject({
      method: 'PATCH',
      url: `/brands/${owner.brand}/saved-searches/${id}`,
      headers: owner.bare,
      payload: { minimum_square_meters: 1 },
    });
    expect(back.statusCode, back.body).toBe(200);
    t.clock.advance(60);
    await ingest([sampleListing('M-3', { price: 380_000 })]);
    await runQueuedJobs(t.deps, [matchEventsTask.name]);
    expect((await matchesOf(id)).map((m) => m.event_type)).toEqual(['BecameAvailable', 'PriceDropped']);
  });

  it('the index columns follow the criteria on PATCH', async () => {
    const id = await save({ agents: ['AG-9'] });
    const read = () =>
      t.deps.db
        .selectFrom('saved_searches')
        .select(['area', 'anchor_keys', 'price_range', 'statuses'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    expect(await read()).toEqual({ area: null, anchor_keys: ['a:AG-9'], price_range: '(,)', statuses: null });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/brands/${owner.brand}/saved-searches/${id}`,
      headers: owner.bare,
      payload: {
        agents: null,
        points: around(-96, 33, 0.5),
        offices: ['OF-1'],
        minimum_price: 250_000,
        listing_statuses: ['Active', 'Pending'],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await read()).toEqual({
      area: '(-95.5,33.5),(-96.5,32.5)',
      anchor_keys: ['o:OF-1'],
      price_range: '[250000,)',
      statuses: ['Active', 'Pending'],
    });
    const max = await t.app.inject({
      method: 'PATCH',
      url: `/brands/${owner.brand}/saved-searches/${id}`,
      headers: owner.bare,
      payload: { minimum_price: null, maximum_price: 300_000.5, listing_statuses: null },
    });
    expect(max.statusCode, max.body).toBe(200);
    expect(await read()).toMatchObject({ price_range: '(,300000.5]', statuses: null });
  });

  it('candidates are narrowed by the price range (bounds inclusive) and statuses in every branch; a listing without a price only by searches without price bounds', async () => {
    const [lon, lat] = [-97.3, 32.7];
    const at = (mls: string, fields: Record<string, unknown>) =>
      sampleListing(mls, {
        list_agent_mui: 'AG-NARROW',
        co_list_agent_mui: null,
        list_office_mls_id: 'OF-NARROW',
        ...fields,
        property: {
          ...(sampleListing('x').property as object),
          address: { city: 'Fort Worth', state: 'TX', location: { latitude: lat, longitude: lon } },
        },
      });
    const unbounded = await save({ points: around(lon, lat) });
    const exactly = await save({ points: around(lon, lat), minimum_price: 400_000, maximum_price: 400_000 });
    const below = await save({ points: around(lon, lat), maximum_price: 399_999 });
    const above = await save({ points: around(lon, lat), minimum_price: 400_001 });
    const pending = await save({ points: around(lon, lat), listing_statuses: ['Pending'] });
    const activeOrPending = await save({ points: around(lon, lat), listing_statuses: ['Pending', 'Active'] });
    const agentAny = await save({ list_agents: ['AG-NARROW'] });
    const agentExactly = await save({ list_agents: ['AG-NARROW'], minimum_price: 400_000, maximum_price: 400_000 });
    const agentBelow = await save({ list_agents: ['AG-NARROW'], maximum_price: 100_000 });
    const agentPending = await save({ list_agents: ['AG-NARROW'], listing_statuses: ['Pending'] });

    await ingest([at('N-1', { price: 400_000 }), at('N-2', { price: null })]);
    const ids = await t.deps.db
      .selectFrom('listings')
      .select(['id', 'mls_number'])
      .where('mls_number', 'in', ['N-1', 'N-2'])
      .execute();
    const id = (mls: string) => ids.find((row) => row.mls_number === mls)!.id;
    const candidates = await findCandidateSearches(t.deps.db, [id('N-1'), id('N-2')]);
    const of = (mls: string) =>
      candidates
        .filter((c) => c.listing === id(mls))
        .map((c) => c.saved_search)
        .sort();
    expect(of('N-1')).toEqual([unbounded, exactly, activeOrPending, agentAny, agentExactly].sort());
    expect(of('N-2')).toEqual([unbounded, activeOrPending, agentAny].sort());
    for (const excluded of [below, above, pending, agentBelow, agentPending])
      expect(candidates.map((c) => c.saved_search)).not.toContain(excluded);
  });
});
