// The listing record existing clients read (issue 18, docs/existing-clients.md): the names the WordPress plugin
// reads, with real values and with missing data, the embedded agents and mls_info, on GET /listings/:id and on
// search pages — and what it costs (no statement per listing, none extra without associations).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { DEFAULT_SEED_MLS, seedListings } from './listings.seed.js';
import { insertMlsIfMissing, upsertMls } from './mls-registry.repository.js';
import { ensureDemoMls } from './mls-registry.service.js';
import { insertListings, memberOfNewBrand, newTag } from '../../../test/helpers/search-fixtures.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';

const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
const DISCLAIMER =
  '<p>© {{currentYear}} North Texas Real Estate Information Systems. Deemed reliable, not guaranteed.</p>';

async function insertAgent(mls: string, mui: string, fields: Record<string, unknown> = {}): Promise<string> {
  const row = await t.deps.db
    .insertInto('agents')
    .values({ mls, mlsid: `${mui}-${Math.random().toString(36).slice(2, 8)}`, mls_unique_id: mui, ...fields } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let user: Record<string, string>;
beforeAll(async () => {
  user = bearer(await tokenFor(t.deps, (await createUser(t.deps)).id));
});

describe('GET /listings/:id: the names existing clients read', () => {
  let full: string;
  let bare: string;
  let listAgentId: string;
  let sellingAgentId: string;
  beforeAll(async () => {
    const feed = await clientHeaders(t.deps);
    const records = [
      sampleListing('R-1', {
        list_agent_mui: 'AG-1',
        selling_agent_mui: 'AG-9',
        list_office_name: 'Maple Realty Group',
      }),
      { mls_number: 'R-2', status: 'Active' },
    ];
    const ingest = await t.app.inject({ method: 'POST', url: '/mls/NTREIS/listings', headers: feed, payload: records });
    expect(ingest.json().data).toMatchObject({ created: 2, failed: [] });
    const ids = await t.deps.db
      .selectFrom('listings')
      .select(['id', 'mls_number'])
      .where('mls', '=', 'NTREIS')
      .execute();
    full = ids.find((row) => row.mls_number === 'R-1')!.id;
    bare = ids.find((row) => row.mls_number === 'R-2')!.id;
    listAgentId = await insertAgent('NTREIS', 'AG-1', {
      full_name: 'Jane Doe',
      first_name: 'Jane',
      last_name: 'Doe',
      email: 'jane@maple.example',
      phone_number: '+12145550100',
      license_number: 'TX-0123456',
    });
    sellingAgentId = await insertAgent('NTREIS', 'AG-9', { full_name: 'Sam Seller' });
    // The same MLS unique id in another MLS is another person: never shown on an NTREIS listing.
    await insertAgent('OTHERMLS', 'AG-1', { full_name: 'Wrong Person' });
  });

  it('answers location, property.description and the formatted names with real values', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/listings/${full}`, headers: user });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.location).toEqual({ latitude: 32.81, longitude: -96.81 });
    expect(data.property.description).toBe('Charming bungalow with a large backyard and a renovated kitchen.');
    expect(data.content).toBe(data.property.description);
    expect(data.list_office_name).toBe('Maple Realty Group');
    const f = data.formatted;
    expect(f.full_address).toEqual({
      type: 'formatted_attribute',
      text: '4521 Maple Ave, Dallas, TX 75219',
      text_no_label: '4521 Maple Ave, Dallas, TX 75219',
      value: '4521 Maple Ave, Dallas, TX 75219',
    });
    expect(f.street_address).toMatchObject({ text: '4521 Maple Ave', value: '4521 Maple Ave' });
    expect(f.price).toMatchObject({ text: '$450,000', value: 450_000 });
    expect(f.bedroom_count).toMatchObject({ text: '3 Beds', text_no_label: '3', value: 3 });
    expect(f.total_bathroom_count).toMatchObject({ text: '2.5 Baths', text_no_label: '2.5', value: 2.5 });
    expect(f.bathrooms).toMatchObject({ text: '2 Full, 1 Half Baths', text_no_label: '2 Full, 1 Half', value: 2.5 });
    // 650 m² = 6,997 ft² = 0.16 acres
    expect(f.lot_size_square_feet).toMatchObject({
      text: '6,997 ft²',
      text_no_label: '6,997',
      value: 6997,
      measurement: 'ft²',
    });
    expect(f.lot_size_acres).toMatchObject({
      text: '0.16 Acres',
      text_no_label: '0.16',
      value: 0.16,
      measurement: 'acres',
    });
    expect(f.parking_spaces).toMatchObject({ text: '3 Parking Spaces', text_no_label: '3', value: 3 });
    expect(f.courtesy).toEqual({
      type: 'formatted_attribute',
      text: 'Listing courtesy of Maple Realty Group',
      text_no_label: 'Maple Realty Group',
      value: 'Maple Realty Group',
      label: 'Listing courtesy of',
    });
    // every field that was there before stays
    expect(f.beds).toMatchObject({ text: '3 Beds' });
    expect(f.lot_size).toMatchObject({ text: '6,997 ft² Lot' });
    expect(data.property.address.location).toEqual({ longitude: -96.81, latitude: 32.81, type: 'location' });
  });

  it('embeds list_agent and selling_agent as agent records of the listing MLS', async () => {
    const data = (await t.app.inject({ method: 'GET', url: `/listings/${full}`, headers: user })).json().data;
    expect(data.list_agent).toMatchObject({
      type: 'agent',
      id: listAgentId,
      mls: 'NTREIS',
      mls_unique_id: 'AG-1',
      full_name: 'Jane Doe',
      email: 'jane@maple.example',
      phone_number: '+12145550100',
      license_number: 'TX-0123456',
      status: 'Active',
      deleted_at: null,
      secret_questions: ['********', '********', '********'],
    });
    expect(typeof data.list_agent.created_at).toBe('number');
    expect(data.selling_agent).toMatchObject({ type: 'agent', id: sellingAgentId, full_name: 'Sam Seller' });
    expect(data.mls_info).toBeUndefined();
  });

  it('is null-safe: a record with nothing but its number answers 200 with nulls and no formatted entries', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/listings/${bare}?associations[]=listing.mls_info`,
      headers: user,
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      location: null,
      list_agent: null,
      selling_agent: null,
      mls_info: null,
      list_office_name: null,
    });
    expect(data.property.description).toBeNull();
    expect(data.formatted).toEqual({});
  });

  it('a deleted agent or an unknown MUI is null, never a 500', async () => {
    await t.deps.db.updateTable('agents').set({ deleted_at: new Date() }).where('id', '=', sellingAgentId).execute();
    const data = (await t.app.inject({ method: 'GET', url: `/listings/${full}`, headers: user })).json().data;
    expect(data.selling_agent).toBeNull();
    expect(data.list_agent).toMatchObject({ id: listAgentId });
  });

  it('mls_info with associations[]=listing.mls_info: the disclaimer exactly as registered, {{currentYear}} kept', async () => {
    await upsertMls(
      t.deps.db,
      'NTREIS',
      { name: 'North Texas MLS', disclaimer: DISCLAIMER, logo_url: 'https://ntreis.example/logo.png' },
      new Date(),
    );
    const res = await t.app.inject({
      method: 'GET',
      url: `/listings/${full}?associations[]=listing.mls_info`,
      headers: user,
    });
    expect(res.json().data.mls_info).toEqual({
      type: 'mls_info',
      mls: 'NTREIS',
      name: 'North Texas MLS',
      disclaimer: DISCLAIMER,
      logo_url: 'https://ntreis.example/logo.png',
    });
    // the comma form of decisions §1, and unknown names ignored
    const comma = await t.app.inject({
      method: 'GET',
      url: `/listings/${full}?associations=listing.nothing,listing.mls_info`,
      headers: user,
    });
    expect(comma.json().data.mls_info.disclaimer).toBe(DISCLAIMER);
    // a seed never overwrites what an operator set
    await insertMlsIfMissing(t.deps.db, { mls: 'NTREIS', name: 'Other', disclaimer: null, logo_url: null }, new Date());
    expect(
      (
        await t.app.inject({ method: 'GET', url: `/listings/${full}?associations[]=listing.mls_info`, headers: user })
      ).json().data.mls_info.name,
    ).toBe('North Texas MLS');
  });

  it('omit[] still drops the new fields', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/listings/${full}?omit[]=listing.list_agent&omit[]=listing.location`,
      headers: user,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.list_agent).toBeUndefined();
    expect(res.json().data.location).toBeUndefined();
  });
});

describe('search pages: the same record, agents and mls_info on request', () => {
  const tag = newTag();
  let member: Awaited<ReturnType<typeof memberOfNewBrand>>;
  let agentId: string;
  beforeAll(async () => {
    member = await memberOfNewBrand(t.deps);
    await insertListings(t.deps, tag, [
      {
        name: 'a',
        price: 100,
        bedroom_count: 2,
        full_bathroom_count: 1,
        half_bathroom_count: 0,
        bathroom_count: 1,
        lot_square_meters: 8094,
        street_address: '1 Elm St',
        full_address: '1 Elm St, Austin, TX 78701',
        list_office_name: 'Elm Realty',
      },
      { name: 'b', price: 200, selling_agent_mui: `${tag}-S` },
      { name: 'c', price: 300 },
    ]);
    // (the fixture keeps `content` for the text-search vectors only)
    await t.deps.db.updateTable('listings').set({ content: 'Cozy' }).where('mls_number', '=', `${tag}-a`).execute();
    agentId = await insertAgent('TEST', tag, { full_name: 'Tag Agent' });
    await insertAgent('TEST', `${tag}-S`, { full_name: 'Tag Seller' });
    await insertMlsIfMissing(
      t.deps.db,
      { mls: 'TEST', name: 'Test MLS', disclaimer: 'Test {{currentYear}}', logo_url: null },
      new Date(),
    );
  });

  const page = (query = '', body: object = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/brands/${member.brand}/listings${query}`,
      headers: member.headers,
      payload: { agents: [tag], sort: [{ by: 'price' }], ...body },
    });

  it('carries the formatted names on every listing of a page; agents and mls_info only when asked', async () => {
    const res = await page();
    expect(res.statusCode, res.body).toBe(200);
    const [a, b] = res.json().data;
    expect(a.formatted).toMatchObject({
      street_address: { text: '1 Elm St', value: '1 Elm St' },
      full_address: { text: '1 Elm St, Austin, TX 78701' },
      price: { text: '$100', value: 100 },
      bedroom_count: { text_no_label: '2' },
      total_bathroom_count: { text_no_label: '1' },
      bathrooms: { text: '1 Bath' },
      lot_size_acres: { text: '2 Acres', value: 2 },
      courtesy: { text: 'Listing courtesy of Elm Realty' },
    });
    expect(a.location).toEqual({ latitude: 32.8, longitude: -96.8 });
    expect(a.property.description).toBe('Cozy');
    expect(a.formatted.parking_spaces).toBeUndefined();
    for (const listing of [a, b]) {
      expect(listing.list_agent).toBeUndefined();
      expect(listing.selling_agent).toBeUndefined();
      expect(listing.mls_info).toBeUndefined();
    }
  });

  it('embeds list_agent, selling_agent and mls_info with their associations', async () => {
    const res = await page(
      '?associations[]=listing.list_agent&associations[]=listing.selling_agent&associations[]=listing.mls_info',
    );
    expect(res.statusCode, res.body).toBe(200);
    const [a, b, c] = res.json().data;
    expect(a.list_agent).toMatchObject({ type: 'agent', id: agentId, full_name: 'Tag Agent' });
    expect(a.selling_agent).toBeNull();
    expect(b.selling_agent).toMatchObject({ full_name: 'Tag Seller' });
    expect(c.mls_info).toEqual({
      type: 'mls_info',
      mls: 'TEST',
      name: 'Test MLS',
      disclaimer: 'Test {{currentYear}}',
      logo_url: null,
    });
  });

  it('on /valerts as the plugin sends it (list_agent only), and on GET /listings/search', async () => {
    const valerts = await t.app.inject({
      method: 'POST',
      url: '/valerts?associations[]=listing.list_agent',
      headers: { ...member.headers, 'x-rechat-brand': member.brand },
      payload: { agents: [tag], limit: '2', sort: [{ by: 'price' }] },
    });
    expect(valerts.statusCode, valerts.body).toBe(200);
    expect(valerts.json().data).toHaveLength(2);
    expect(valerts.json().data[0].list_agent).toMatchObject({ full_name: 'Tag Agent' });
    expect(valerts.json().data[0].selling_agent).toBeUndefined();
    const legacy = await t.app.inject({
      method: 'GET',
      url: `/listings/search?mls_number=${tag}-a&associations[]=listing.mls_info`,
      headers: member.headers,
    });
    expect(legacy.statusCode, legacy.body).toBe(200);
    expect(legacy.json().data[0].mls_info).toMatchObject({ name: 'Test MLS' });
  });

  it('costs no statement per listing, and none at all without associations', async () => {
    const statements = async (request: () => Promise<unknown>) => {
      let count = 0;
      const onAcquire = () => void count++;
      t.deps.database.pool.on('acquire', onAcquire);
      try {
        await request();
      } finally {
        t.deps.database.pool.off('acquire', onAcquire);
      }
      return count;
    };
    const all =
      '?associations[]=listing.list_agent&associations[]=listing.selling_agent&associations[]=listing.mls_info';
    await page(all); // warm caches (brand access, prepared statements)
    const plainOne = await statements(() => page('', { limit: 1 }));
    const plainPage = await statements(() => page('', { limit: 3 }));
    const embeddedOne = await statements(() => page(all, { limit: 1 }));
    const embeddedPage = await statements(() => page(all, { limit: 3 }));
    expect(plainOne).toBeGreaterThan(0); // the count sees the search's own statements
    expect(plainPage).toBe(plainOne);
    expect(embeddedOne).toBe(plainOne);
    expect(embeddedPage).toBe(plainOne);
  });
});

describe('the demo world: a seeded listing as the plugin shows it', () => {
  it('has its address, list agent, courtesy line and the demo MLS disclaimer', async () => {
    await seedListings(t.deps, { count: 3, mls: DEFAULT_SEED_MLS, seed: 7 });
    await ensureDemoMls(t.deps.db, new Date());
    const { id } = await t.deps.db
      .selectFrom('listings')
      .select('id')
      .where('mls', '=', DEFAULT_SEED_MLS)
      .orderBy('mls_number')
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'GET',
      url: `/listings/${id}?associations[]=listing.mls_info`,
      headers: user,
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.formatted.full_address.text).toMatch(/, [A-Z]{2} \d{5}$/);
    expect(data.formatted.street_address.text).toBeTruthy();
    expect(data.formatted.courtesy.text).toMatch(/^Listing courtesy of Gable Realty Office \d+$/);
    expect(data.list_agent).toMatchObject({ type: 'agent', mls: DEFAULT_SEED_MLS, mls_unique_id: data.list_agent_mui });
    expect(data.mls_info).toMatchObject({ mls: DEFAULT_SEED_MLS, name: 'Gable Demo MLS' });
    expect(data.mls_info.disclaimer).toContain('{{currentYear}}');
  });
});
