// Stored listing records (listings.stored-record.ts): a page built from the stored texts is exactly what the
// route's serializer writes for the presented rows; a text that no longer describes its listing (changed by
// another path, or written by another version of the code) is never used, and the refresh task writes it again.
import fastJson from 'fast-json-stringify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { presentListing, type ListingEmbeds } from './listings.presenter.js';
import { findListingRows } from './listings.repository.js';
import { ListingRecord } from './listings.schemas.js';
import { seedListings } from './listings.seed.js';
import {
  loadListingRecordTexts,
  otherVersionIds,
  RECORD_VERSION,
  writeListingRecords,
  refreshOtherVersions,
} from './listings.stored-record.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';

const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
const MLS = 'STORED';
const serializeRecord = fastJson(ListingRecord);
const EVERY_EMBED: ListingEmbeds = { listAgent: true, sellingAgent: true, mlsInfo: true };

/** What the route's serializer writes for each listing presented from its columns (the path before stored texts). */
async function presentedFromColumns(ids: string[], embed: ListingEmbeds): Promise<unknown[]> {
  const rows = new Map((await findListingRows(t.deps.db, ids, embed)).map((row) => [row.id, row]));
  return ids
    .filter((id) => rows.has(id))
    .map((id) => JSON.parse(serializeRecord(presentListing(rows.get(id)!, t.deps.clock.now()))));
}

async function storedPage(ids: string[], embed: ListingEmbeds = {}): Promise<unknown[]> {
  return (await loadListingRecordTexts(t.deps.db, ids, t.deps.clock.now(), embed)).map((text) => JSON.parse(text));
}

async function idsOf(mls: string): Promise<string[]> {
  return (
    await t.deps.db.selectFrom('listings').select('id').where('mls', '=', mls).orderBy('mls_number').execute()
  ).map((row) => row.id);
}

let seeded: string[];
let withAgents: string;
beforeAll(async () => {
  await seedListings(t.deps, { count: 120, mls: MLS, seed: 7 });
  seeded = await idsOf(MLS);
  const feed = await clientHeaders(t.deps);
  const ingest = await t.app.inject({
    method: 'POST',
    url: '/mls/STOREDAG/listings',
    headers: feed,
    payload: [
      sampleListing('A-1', {
        list_agent_mui: 'SA-1',
        selling_agent_mui: 'SA-2',
        content: 'Two lines:\nthe "second" one, with \\ and é — \u2028 too',
      }),
    ],
  });
  expect(ingest.json().data).toMatchObject({ created: 1, failed: [] });
  withAgents = (await idsOf('STOREDAG'))[0]!;
  await t.deps.db
    .insertInto('agents')
    .values({ mls: 'STOREDAG', mlsid: 'SA-1', mls_unique_id: 'SA-1', full_name: 'Stella Agent' } as never)
    .execute();
});

describe('stored listing records', () => {
  it('ingest writes every listing a current text, and a page of them equals the serialized presented rows', async () => {
    const current = await t.deps.db
      .selectFrom('listing_records as s')
      .innerJoin('listings as l', 'l.id', 's.listing')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('l.mls', '=', MLS)
      .where('s.version', '=', RECORD_VERSION)
      .whereRef('s.listing_updated_at', '=', 'l.updated_at')
      .executeTakeFirstOrThrow();
    expect(Number(current.n)).toBe(seeded.length);
    expect(seeded.length).toBe(120);
    // Open houses, closed listings (dom to the close), nulls everywhere: the synthetic mix has them all.
    const page = await storedPage(seeded);
    expect(page).toEqual(await presentedFromColumns(seeded, {}));
    expect(page.some((record) => (record as { open_houses: unknown[] }).open_houses.length > 0)).toBe(true);
    expect(new Set(page.map((record) => (record as { dom: number | null }).dom)).size).toBeGreaterThan(10);
  });

  it('splices the embedded agents and mls_info asked for, and keeps the order given', async () => {
    const ids = [withAgents, ...seeded.slice(0, 5).reverse()];
    const page = await storedPage(ids, EVERY_EMBED);
    expect(page).toEqual(await presentedFromColumns(ids, EVERY_EMBED));
    expect(page.map((record) => (record as { id: string }).id)).toEqual(ids);
    expect(page[0]).toMatchObject({ list_agent: { full_name: 'Stella Agent' }, selling_agent: null, mls_info: null });
    expect((page[0] as { content: string }).content).toBe('Two lines:\nthe "second" one, with \\ and é — \u2028 too');
  });

  it('skips unknown and deleted listings', async () => {
    const [deleted, kept] = seeded.slice(10, 12) as [string, string];
    await t.deps.db.updateTable('listings').set({ deleted_at: new Date() }).where('id', '=', deleted).execute();
    const page = await storedPage([deleted, '00000000-0000-4000-8000-00000000dead', kept]);
    expect(page.map((record) => (record as { id: string }).id)).toEqual([kept]);
  });

  it('presents a listing changed by a path that does not write its text from its columns', async () => {
    const id = seeded[20]!;
    await sql`update listings set price = 123456, updated_at = now() where id = ${id}`.execute(t.deps.db);
    const [changed] = await storedPage([id]);
    expect(changed).toMatchObject({ price: 123456, formatted: { price: { text: '$123,456' } } });
    expect(await storedPage([id])).toEqual(await presentedFromColumns([id], {}));
    // What such a path must call (as ingest does): the text is current again.
    expect(await writeListingRecords(t.deps.db, [id])).toBe(1);
    const stored = await t.deps.db
      .selectFrom('listing_records')
      .select('record')
      .where('listing', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.record)).toMatchObject({ price: 123456 });
  });

  it('never uses a text of another version, and the refresh task writes those again (deleted listings lose theirs)', async () => {
    const [first, second, third, gone] = seeded.slice(30, 34) as [string, string, string, string];
    // Another version's texts, and the placeholder the migration gives listings stored before the texts existed.
    await sql`update listing_records set version = 'older', record = '{"type":"listing","id":"not this"}' where listing = any(${[first, second, gone]}::uuid[])`.execute(
      t.deps.db,
    );
    await sql`update listing_records set version = 'unwritten', record = '' where listing = ${third}`.execute(
      t.deps.db,
    );
    await t.deps.db.updateTable('listings').set({ deleted_at: new Date() }).where('id', '=', gone).execute();
    expect(await storedPage([first, second, third])).toEqual(await presentedFromColumns([first, second, third], {}));
    expect((await otherVersionIds(t.deps.db, 100)).sort()).toEqual([first, second, third, gone].sort());

    // Batches of 2: several steps, and the deleted listing's text must not keep the loop going.
    expect(await refreshOtherVersions(t.deps, { batch: 2 })).toBe(3);
    expect(await otherVersionIds(t.deps.db, 100)).toEqual([]);
    const versions = await t.deps.db
      .selectFrom('listing_records')
      .select(['listing', 'version'])
      .where('listing', 'in', [first, second, third, gone])
      .execute();
    expect(Object.fromEntries(versions.map((row) => [row.listing, row.version]))).toEqual({
      [first]: RECORD_VERSION,
      [second]: RECORD_VERSION,
      [third]: RECORD_VERSION,
    });
    expect(await storedPage([first, second, third])).toEqual(await presentedFromColumns([first, second, third], {}));
  });

  it('answers search pages from the stored texts, with days on market as of the request', async () => {
    const feed = await clientHeaders(t.deps);
    await t.app.inject({
      method: 'POST',
      url: '/mls/STOREDAG/listings',
      headers: feed,
      payload: [sampleListing('A-2', { list_date: '2026-11-01T12:00:00Z' })],
    });
    const user = bearer(await tokenFor(t.deps, (await createUser(t.deps)).id));
    const res = await t.app.inject({ method: 'GET', url: '/listings/search?mls_number=A-2', headers: user });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toMatchObject({
      code: 'OK',
      data: [{ mls_number: 'A-2', dom: 20, cdom: 20 }],
      info: { count: 1, total: 1 },
    });
    t.clock.advance(3 * 86_400);
    expect(
      (await t.app.inject({ method: 'GET', url: '/listings/search?mls_number=A-2', headers: user })).json().data[0].dom,
    ).toBe(23);
  });
});
