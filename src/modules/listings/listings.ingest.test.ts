// POST /mls/:mls/listings: per-record validation, upsert idempotency, auth and body limits.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { queuedJobs } from '../../../test/helpers/jobs.js';
import { matchEventsTask } from '../saved-searches/matching.tasks.js';
import { EMBEDDED_TRANSACTION_LISTINGS, ingestListings } from './listings.ingest.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';

describe('POST /mls/:mls/listings', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let feed: Record<string, string>;
  beforeAll(async () => {
    feed = await clientHeaders(t.deps);
  });

  const ingest = (records: unknown, headers = feed, mls = 'NTREIS') =>
    t.app.inject({ method: 'POST', url: `/mls/${mls}/listings`, headers, payload: records as object });

  it('keeps the good records and reports each bad one by index', async () => {
    const res = await ingest([
      sampleListing('V-1'),
      sampleListing('V-2', { status: 'Gone Fishing' }),
      sampleListing('V-3', { price: -5, property: { bedroom_count: 2.5 } }),
      'not an object',
      sampleListing('V-4', { list_date: '2026-13-45T99:00:00Z' }),
      sampleListing('V-5', { mls: 'OTHER' }),
      sampleListing('V-6'),
    ]);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ type: 'listing_ingest', created: 2, updated: 0, unchanged: 0 });
    expect(data.failed.map((f: { index: number }) => f.index)).toEqual([1, 2, 3, 4, 5]);
    expect(data.failed[0]).toEqual({
      index: 1,
      mls_number: 'V-2',
      errors: { status: [expect.stringContaining('must be one of Active')] },
    });
    expect(Object.keys(data.failed[1].errors).sort()).toEqual(['price', 'property.bedroom_count']);
    expect(data.failed[2].mls_number).toBeNull();
    expect(data.failed[3].errors).toEqual({ list_date: ['is not a valid date-time'] });
    expect(data.failed[4].errors.mls[0]).toContain('NTREIS');
    const stored = await t.deps.db
      .selectFrom('listings')
      .select('mls_number')
      .where('mls', '=', 'NTREIS')
      .where('mls_number', 'like', 'V-%')
      .orderBy('mls_number')
      .execute();
    expect(stored.map((row) => row.mls_number)).toEqual(['V-1', 'V-6']);
  });

  it('is idempotent: the same batch again changes nothing; a changed record is an update', async () => {
    const batch = [sampleListing('I-1'), sampleListing('I-2')];
    expect((await ingest(batch)).json().data).toMatchObject({ created: 2, updated: 0, unchanged: 0, failed: [] });
    expect((await ingest(batch)).json().data).toMatchObject({ created: 0, updated: 0, unchanged: 2, failed: [] });
    const changed = [sampleListing('I-1', { content: 'New remarks' }), sampleListing('I-2')];
    expect((await ingest(changed)).json().data).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    const count = await t.deps.db
      .selectFrom('listings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mls_number', 'in', ['I-1', 'I-2'])
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);
  });

  it('maintains the derived columns and replaces open houses', async () => {
    await ingest([sampleListing('D-1')]);
    const row = await t.deps.db
      .selectFrom('listings')
      .selectAll()
      .where('mls_number', '=', 'D-1')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      bathroom_count: 2.5,
      parking_spaces_total: 3,
      agent_muis: ['AG-1', 'AG-2'],
      office_mls_ids: ['OF-1'],
      street_address: '4521 Maple Ave',
      full_address: '4521 Maple Ave, Dallas, TX 75219',
    });
    expect(row.location).toEqual({ x: -96.81, y: 32.81 });
    expect(row.open_house_until?.toISOString()).toBe('2026-11-28T18:00:00.000Z');
    await ingest([sampleListing('D-1', { open_houses: [] })]);
    const houses = await t.deps.db
      .selectFrom('listing_open_houses')
      .select('id')
      .where('listing', '=', row.id)
      .execute();
    expect(houses).toHaveLength(0);
    const after = await t.deps.db
      .selectFrom('listings')
      .select(['open_house_until', 'search_tsv'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(after.open_house_until).toBeNull();
    expect(after.search_tsv).toContain("'bungalow'");
  });

  it('reports the earlier of two records with the same mls_number and keeps the later', async () => {
    const res = await ingest([sampleListing('DUP-1', { price: 1 }), sampleListing('DUP-1', { price: 2 })]);
    const { data } = res.json();
    expect(data).toMatchObject({ created: 1, failed: [{ index: 0, mls_number: 'DUP-1' }] });
    const row = await t.deps.db
      .selectFrom('listings')
      .select('price')
      .where('mls_number', '=', 'DUP-1')
      .executeTakeFirstOrThrow();
    expect(row.price).toBe(2);
  });

  it('refuses user tokens and partner clients (403) and anonymous calls (401)', async () => {
    const user = await createUser(t.deps);
    expect((await ingest([sampleListing('A-1')], bearer(await tokenFor(t.deps, user.id)))).statusCode).toBe(403);
    expect((await ingest([sampleListing('A-1')], await clientHeaders(t.deps, 'partner'))).statusCode).toBe(403);
    const partner = await ingest(
      [sampleListing('A-1', { padding: 'x'.repeat(2 * 1024 * 1024) })],
      await clientHeaders(t.deps, 'partner'),
    );
    expect(partner.statusCode).toBe(403); // refused before its (large) body is read
    const anonymous = await ingest([sampleListing('A-1')], {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UnauthorizedAccess' });
  });

  it('reads up to 8 MiB, answers 413 beyond; 400 for malformed JSON, a non-array or too many records', async () => {
    const large = Array.from({ length: 3 }, (_, i) => sampleListing(`LARGE-${i}`, { content: 'x'.repeat(19_000) }));
    const padded = { ...large[0], padding: 'y'.repeat(2 * 1024 * 1024) };
    expect((await ingest([padded, ...large.slice(1)])).statusCode).toBe(200);
    const huge = [sampleListing('BIG', { padding: 'x'.repeat(8 * 1024 * 1024) })];
    expect((await ingest(huge)).statusCode).toBe(413);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/mls/NTREIS/listings',
      headers: { ...feed, 'content-type': 'application/json' },
      payload: '[{"mls_number": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'BadRequest' });
    expect((await ingest({ mls_number: 'X' })).statusCode).toBe(400);
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ mls_number: `M-${i}`, status: 'Active' }));
    expect((await ingest(tooMany)).statusCode).toBe(400);
  });

  it('writes a batch in transactions of 100 on the embedded database, and a re-sent batch adds only the rest', async () => {
    // Either database, told it is embedded: the split is the same code on both.
    const embedded = { ...t.deps, config: { embedded: true } };
    const batch = Array.from({ length: 230 }, (_, i) => sampleListing(`SPLIT-${String(i).padStart(3, '0')}`));
    const matchJobsBefore = (await queuedJobs(t.deps, [matchEventsTask.name])).length;
    // As if the first transaction had committed and the request then failed: the feed sends the batch again.
    const first = await ingestListings(embedded, 'NTREIS', batch.slice(0, EMBEDDED_TRANSACTION_LISTINGS));
    expect(first).toMatchObject({ created: 100, events: 100 });
    const resent = await ingestListings(embedded, 'NTREIS', batch);
    expect(resent).toMatchObject({ created: 130, updated: 0, unchanged: 100, events: 130, failed: [] });
    // Each transaction enqueued its own matching job with its events: 1 for the first call, 2 for the 130 new ones.
    const matchJobs = (await queuedJobs(t.deps, [matchEventsTask.name])).slice(matchJobsBefore);
    expect(matchJobs.map((job) => (job.data as { events: string[] }).events.length)).toEqual([100, 100, 30]);
    const events = await t.deps.db
      .selectFrom('listing_events')
      .innerJoin('listings', 'listings.id', 'listing_events.listing')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('listings.mls_number', 'like', 'SPLIT-%')
      .executeTakeFirstOrThrow();
    expect(Number(events.n)).toBe(230);
  });
});
