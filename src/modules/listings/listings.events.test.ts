// Listing events recorded by ingest (decisions §5), in the same transaction as the upsert.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';

describe('listing events', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let feed: Record<string, string>;
  beforeAll(async () => {
    feed = await clientHeaders(t.deps);
  });

  const ingest = async (records: unknown[]) => {
    const res = await t.app.inject({ method: 'POST', url: '/mls/EVT/listings', headers: feed, payload: records });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const eventsOf = async (mlsNumber: string) =>
    t.deps.db
      .selectFrom('listing_events as e')
      .innerJoin('listings as l', 'l.id', 'e.listing')
      .select(['e.type', 'e.old_status', 'e.new_status', 'e.old_price', 'e.new_price'])
      .where('l.mls_number', '=', mlsNumber)
      .orderBy('e.created_at')
      .orderBy('e.type')
      .execute();

  it('a new Active listing became available; a new Sold one records nothing', async () => {
    const result = await ingest([
      sampleListing('E-NEW'),
      sampleListing('E-SOLD', { status: 'Sold', close_price: 440_000, close_date: 1763900000 }),
    ]);
    expect(result.events).toBe(1);
    expect(await eventsOf('E-NEW')).toEqual([
      { type: 'BecameAvailable', old_status: null, new_status: 'Active', old_price: null, new_price: 450_000 },
    ]);
    expect(await eventsOf('E-SOLD')).toEqual([]);
  });

  it('records StatusChanged, then BecameAvailable when it is Active again', async () => {
    await ingest([sampleListing('E-BACK')]);
    t.clock.advance(60);
    await ingest([sampleListing('E-BACK', { status: 'Pending' })]);
    t.clock.advance(60);
    await ingest([sampleListing('E-BACK', { status: 'Active' })]);
    const events = await eventsOf('E-BACK');
    expect(events.map((e) => [e.type, e.old_status, e.new_status])).toEqual([
      ['BecameAvailable', null, 'Active'],
      ['StatusChanged', 'Active', 'Pending'],
      ['BecameAvailable', 'Pending', 'Active'],
    ]);
  });

  it('records PriceDropped for a lower price only, and keeps last_price', async () => {
    await ingest([sampleListing('E-PRICE', { price: 500_000 })]);
    t.clock.advance(60);
    await ingest([sampleListing('E-PRICE', { price: 480_000 })]);
    t.clock.advance(60);
    await ingest([sampleListing('E-PRICE', { price: 490_000 })]);
    const events = await eventsOf('E-PRICE');
    expect(events.map((e) => [e.type, e.old_price, e.new_price])).toEqual([
      ['BecameAvailable', null, 500_000],
      ['PriceDropped', 500_000, 480_000],
    ]);
    const row = await t.deps.db
      .selectFrom('listings')
      .select(['price', 'last_price'])
      .where('mls_number', '=', 'E-PRICE')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ price: 490_000, last_price: 480_000 });
  });

  it('a status change with a lower price records both; an unchanged or merely edited record records none', async () => {
    await ingest([sampleListing('E-BOTH')]);
    t.clock.advance(60);
    const both = await ingest([sampleListing('E-BOTH', { status: 'Active Under Contract', price: 430_000 })]);
    expect(both.events).toBe(2);
    const again = await ingest([sampleListing('E-BOTH', { status: 'Active Under Contract', price: 430_000 })]);
    expect(again).toMatchObject({ unchanged: 1, events: 0 });
    const edited = await ingest([
      sampleListing('E-BOTH', { status: 'Active Under Contract', price: 430_000, content: 'Updated remarks' }),
    ]);
    expect(edited).toMatchObject({ updated: 1, events: 0 });
    const types = (await eventsOf('E-BOTH')).map((e) => e.type).sort();
    expect(types).toEqual(['BecameAvailable', 'PriceDropped', 'StatusChanged']);
  });

  it('stamps events with the server clock', async () => {
    await ingest([sampleListing('E-TIME')]);
    const row = await t.deps.db
      .selectFrom('listing_events as e')
      .innerJoin('listings as l', 'l.id', 'e.listing')
      .select('e.created_at')
      .where('l.mls_number', '=', 'E-TIME')
      .executeTakeFirstOrThrow();
    expect(row.created_at.getTime()).toBe(t.clock.now().getTime());
  });
});
