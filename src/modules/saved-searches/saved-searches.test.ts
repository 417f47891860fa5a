// Saved searches over HTTP (spec §2.5, §4.4, §7, §8; decisions §6): the record, every validation rule with its 400
// and nothing written, merge vs replace, contact links, access across brands, and running a search.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { crmUser } from '../../../test/helpers/contacts.js';
import { insertListings, newTag } from '../../../test/helpers/search-fixtures.js';

const t = useTestApp();
let owner: Awaited<ReturnType<typeof crmUser>>;
let stranger: Awaited<ReturnType<typeof crmUser>>;
let contact: string;
let otherBrandContact: string;

const RING = [
  { latitude: 32.9, longitude: -96.9 },
  { latitude: 32.9, longitude: -96.7 },
  { latitude: 32.7, longitude: -96.7 },
  { latitude: 32.7, longitude: -96.9 },
  { latitude: 32.9, longitude: -96.9 },
];

const base = () => `/brands/${owner.brand}/saved-searches`;
const post = (payload: object, headers = owner.bare, url = base()) =>
  t.app.inject({ method: 'POST', url, headers, payload });
const counts = async () => ({
  searches: Number(
    (
      await t.deps.db
        .selectFrom('saved_searches')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
  links: Number(
    (
      await t.deps.db
        .selectFrom('saved_search_contacts')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
});

async function newContact(headers: Record<string, string>, first_name: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/contacts',
    headers,
    payload: { first_name, emails: [`${first_name.toLowerCase()}@example.com`] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}

beforeAll(async () => {
  const brand = (await createBrand(t.deps)).id;
  owner = await crmUser(t.deps, { brand });
  // The owner's time zone is the schedule's: give the owner a known one.
  await t.deps.db.updateTable('users').set({ timezone: 'America/Chicago' }).where('id', '=', owner.user).execute();
  stranger = await crmUser(t.deps);
  contact = await newContact(owner.headers, 'Alice');
  otherBrandContact = await newContact(stranger.headers, 'Mallory');
});

describe('create and read', () => {
  it('stores every criterion, echoes unset ones as null, and links contacts with the flat schedule', async () => {
    const res = await post({
      points: RING,
      minimum_bedrooms: 3,
      maximum_price: 500000,
      contacts: [contact],
      frequency: 'Weekly',
      send_time: 480,
      send_weekday: 1,
      created_by: '00000000-0000-0000-0000-000000000001',
      brand: stranger.brand,
    });
    expect(res.statusCode, res.body).toBe(200);
    const record = res.json().data;
    expect(record).toMatchObject({
      type: 'saved_search',
      brand: owner.brand,
      created_by: owner.user,
      from: owner.user,
      minimum_bedrooms: 3,
      maximum_price: 500000,
      minimum_price: null,
      pool: null,
      currency: 'USD',
      brands: null,
      boundaries: null,
      timezone: 'America/Chicago',
      frequency: 'Weekly',
      send_time: 480,
      send_weekday: 1,
      send_monthday: null,
      contacts: [contact],
    });
    expect(record.points[0]).toEqual({ latitude: 32.9, longitude: -96.9, type: 'location' });
    expect(record.proposed_title).toMatch(/3\+ Beds/);
    expect(record.title).toBe(record.proposed_title);
    expect(record.contact_links).toEqual([
      expect.objectContaining({
        type: 'saved_search_contact',
        contact,
        frequency: 'Weekly',
        send_time: 480,
        send_weekday: 1,
        send_monthday: null,
      }),
    ]);

    const read = await t.app.inject({
      method: 'GET',
      url: `${base()}/${record.id}?associations[]=saved_search.contacts`,
      headers: owner.bare,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().data.contacts[0]).toMatchObject({ type: 'contact', id: contact, display_name: 'Alice' });
  });

  it('says currency USD when the search names none (spec 2.5), also once PATCH clears it; keeps one given', async () => {
    const created = await post({ points: RING, minimum_price: 300000 });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().data.currency).toBe('USD');
    const url = `${base()}/${created.json().data.id}`;
    expect((await t.app.inject({ url, headers: owner.bare })).json().data.currency).toBe('USD');
    const listed = await t.app.inject({ url: base(), headers: owner.bare });
    expect(listed.json().data.find((r: { id: string }) => r.id === created.json().data.id).currency).toBe('USD');

    const cad = await t.app.inject({ method: 'PATCH', url, headers: owner.bare, payload: { currency: 'cad' } });
    expect(cad.json().data.currency).toBe('CAD');
    const cleared = await t.app.inject({ method: 'PATCH', url, headers: owner.bare, payload: { currency: null } });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data.currency).toBe('USD');
  });

  it('lists the brand’s searches newest first with an exact total and paging', async () => {
    const lister = await crmUser(t.deps);
    const ids: string[] = [];
    for (const title of ['one', 'two', 'three']) {
      t.clock.advance(1);
      const res = await post({ title, agents: ['A1'] }, lister.bare, `/brands/${lister.brand}/saved-searches`);
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().data.id);
    }
    const page = await t.app.inject({
      method: 'GET',
      url: `/brands/${lister.brand}/saved-searches?start=1&limit=1`,
      headers: lister.bare,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json().info).toEqual({ count: 1, total: 3 });
    expect(page.json().data[0].title).toBe('two');
  });
});

describe('bad input: a clear 400 and nothing written', () => {
  it.each([
    ['no anchor', { minimum_bedrooms: 2 }, 'Request too broad. Either define mls, brand, or geographic boundaries'],
    [
      'an empty scope array is not an anchor',
      { agents: [] },
      'Request too broad. Either define mls, brand, or geographic boundaries',
    ],
    [
      'points: null clears the polygon and leaves no anchor',
      { points: null },
      'Request too broad. Either define mls, brand, or geographic boundaries',
    ],
    ['points: [] is a ring that is too short', { points: [] }, /^points /],
    ['an open ring', { points: RING.slice(0, 4) }, /^points /],
    ['min above max', { agents: ['A'], minimum_price: 5, maximum_price: 1 }, /^minimum_price /],
    ['a frequency in the wrong case', { agents: ['A'], frequency: 'daily' }, /frequency/],
    ['Daily without send_time', { agents: ['A'], frequency: 'Daily' }, /^send_time is required/],
    ['Weekly without send_weekday', { agents: ['A'], frequency: 'Weekly', send_time: 60 }, /^send_weekday is required/],
    [
      'Monthly without send_monthday',
      { agents: ['A'], frequency: 'Monthly', send_time: 60 },
      /^send_monthday is required/,
    ],
    ['send_time 1440', { agents: ['A'], frequency: 'Daily', send_time: 1440 }, /send_time/],
    ['send_weekday 7', { agents: ['A'], frequency: 'Weekly', send_time: 0, send_weekday: 7 }, /send_weekday/],
    ['send_monthday 0', { agents: ['A'], frequency: 'Monthly', send_time: 0, send_monthday: 0 }, /send_monthday/],
  ])('%s', async (_name, payload, message) => {
    const before = await counts();
    const res = await post(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await counts()).toEqual(before);
  });

  it('a contact of another brand is 404, and nothing is written', async () => {
    const before = await counts();
    const res = await post({ agents: ['A'], contacts: [otherBrandContact] });
    expect(res.statusCode).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it('an unknown boundary is a 400 naming it', async () => {
    const res = await post({ boundaries: ['00000000-0000-4000-8000-000000000000'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().attributes.boundaries[0]).toMatch(/00000000-0000-4000-8000-000000000000/);
  });
});

describe('access', () => {
  let id: string;
  beforeAll(async () => {
    id = (await post({ agents: ['ACCESS'] })).json().data.id;
  });

  it('another brand cannot read it through its own path (404) nor act in the owner’s brand (403)', async () => {
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/brands/${stranger.brand}/saved-searches/${id}`,
          headers: stranger.bare,
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/${id}`, headers: stranger.bare })).statusCode).toBe(
      403,
    );
    expect(
      (await t.app.inject({ method: 'PATCH', url: `${base()}/${id}`, headers: stranger.bare, payload: { title: 'x' } }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/brands/${stranger.brand}/saved-searches/${id}`,
          headers: stranger.bare,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('a member without the CRM ACL is refused (403)', async () => {
    const marketer = await crmUser(t.deps, { brand: owner.brand, acl: ['Marketing'] });
    expect((await t.app.inject({ method: 'GET', url: base(), headers: marketer.bare })).statusCode).toBe(403);
  });
});

describe('change', () => {
  it('PATCH merges (null clears) and PUT replaces; both keep the anchor rule', async () => {
    const id = (await post({ points: RING, maximum_price: 400000, minimum_bedrooms: 2, title: 'Mine' })).json().data.id;
    const url = `${base()}/${id}`;
    const patched = await t.app.inject({
      method: 'PATCH',
      url,
      headers: owner.bare,
      payload: { minimum_bedrooms: 4, maximum_price: null },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({ minimum_bedrooms: 4, maximum_price: null, title: 'Mine' });
    expect(patched.json().data.points).toHaveLength(5);

    const unanchored = await t.app.inject({ method: 'PATCH', url, headers: owner.bare, payload: { points: null } });
    expect(unanchored.statusCode).toBe(400);
    expect(unanchored.json().message).toBe('Request too broad. Either define mls, brand, or geographic boundaries');

    const replaced = await t.app.inject({ method: 'PUT', url, headers: owner.bare, payload: { agents: ['NEW'] } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().data).toMatchObject({
      agents: ['NEW'],
      points: null,
      minimum_bedrooms: null,
      title: replaced.json().data.proposed_title,
      frequency: 'Instant',
    });
  });

  it('a schedule sent applies to every linked contact; contacts link and unlink', async () => {
    const second = await newContact(owner.headers, 'Bob');
    const id = (await post({ agents: ['LINKS'], contacts: [contact], frequency: 'Instant' })).json().data.id;
    const url = `${base()}/${id}`;
    const linked = await t.app.inject({
      method: 'POST',
      url: `${url}/contacts`,
      headers: owner.bare,
      payload: { contacts: [second], frequency: 'Monthly', send_time: 600, send_monthday: 31 },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const links = new Map(
      linked.json().data.contact_links.map((l: { contact: string; frequency: string }) => [l.contact, l.frequency]),
    );
    expect(links).toEqual(
      new Map([
        [contact, 'Instant'],
        [second, 'Monthly'],
      ]),
    );

    const rescheduled = await t.app.inject({
      method: 'PATCH',
      url,
      headers: owner.bare,
      payload: { frequency: 'Daily', send_time: 420 },
    });
    expect(
      rescheduled
        .json()
        .data.contact_links.map((l: { frequency: string; send_time: number }) => [l.frequency, l.send_time]),
    ).toEqual([
      ['Daily', 420],
      ['Daily', 420],
    ]);

    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `${url}/contacts`,
          headers: owner.bare,
          payload: { contacts: [otherBrandContact] },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${url}/contacts/${second}`, headers: owner.bare })).statusCode,
    ).toBe(204);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${url}/contacts/${second}`, headers: owner.bare })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url, headers: owner.bare })).json().data.contacts).toEqual([contact]);
  });

  it('DELETE is soft: 204, then 404 and gone from the list', async () => {
    const id = (await post({ agents: ['GONE'] })).json().data.id;
    expect((await t.app.inject({ method: 'DELETE', url: `${base()}/${id}`, headers: owner.bare })).statusCode).toBe(
      204,
    );
    expect((await t.app.inject({ method: 'GET', url: `${base()}/${id}`, headers: owner.bare })).statusCode).toBe(404);
    const list = await t.app.inject({ method: 'GET', url: `${base()}?limit=1000`, headers: owner.bare });
    expect(list.json().data.map((s: { id: string }) => s.id)).not.toContain(id);
    const row = await t.deps.db
      .selectFrom('saved_searches')
      .select('deleted_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
  });
});

describe('run', () => {
  it('finds what the search engine finds, with its paging and legacy order_by', async () => {
    const tag = newTag();
    const names = await insertListings(t.deps, tag, [
      { name: 'cheap', price: 100_000, bedroom_count: 3 },
      { name: 'dear', price: 900_000, bedroom_count: 3 },
      { name: 'small', price: 200_000, bedroom_count: 1 },
    ]);
    const id = (await post({ agents: [tag], minimum_bedrooms: 2 })).json().data.id;
    const res = await t.app.inject({
      method: 'GET',
      url: `${base()}/${id}/listings?order_by[]=-price&limit=1`,
      headers: owner.bare,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toMatchObject({ count: 1, total: 2 });
    expect(names.get(res.json().data[0].id)).toBe('dear');
  });
});
