// POST/GET /contacts/:id/timeline: attachments per action, listings resolved to the spec §6 shape, last_touch,
// paging newest first, the Activities event with the exact spec §6 payload, access.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { crmUser, outboxRows } from '../../../test/helpers/contacts.js';

const t = useTestApp({ now: new Date('2026-06-01T12:00:00Z') });
let member: Awaited<ReturnType<typeof crmUser>>;
let listingId: string;
const LISTING = {
  mls: 'NTREIS',
  mls_number: 'TL-1001',
  status: 'Active',
  price: 425000,
  full_address: '123 Main St, Dallas, TX 75201',
};

beforeAll(async () => {
  member = await crmUser(t.deps);
  listingId = (
    await t.deps.db
      .insertInto('listings')
      .values(LISTING as never)
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

async function newContact(headers = member.headers) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/contacts',
    headers,
    payload: { first_name: 'Timeline', touch_freq: 7 },
  });
  return res.json().data as { id: string };
}
const record = (contact: string, payload: object, headers = member.bare) =>
  t.app.inject({ method: 'POST', url: `/contacts/${contact}/timeline`, headers, payload });
const SUMMARY = {
  id: '',
  mls: 'NTREIS',
  mls_number: 'TL-1001',
  status: 'Active',
  price: 425000,
  address: '123 Main St, Dallas, TX 75201',
};

describe('recording', () => {
  it('resolves a listing by id or MLS number to the spec §6 shape and touches the contact', async () => {
    const contact = await newContact();
    const byId = await record(contact.id, {
      action: 'ContactViewedListing',
      listing: { id: listingId },
      notes: 'Loved the kitchen',
    });
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json().data).toMatchObject({
      type: 'contact_activity',
      contact: contact.id,
      brand: member.brand,
      action: 'ContactViewedListing',
      listing: { ...SUMMARY, id: listingId },
      lead: null,
      search: null,
      notes: 'Loved the kitchen',
      created_by: member.user,
      created_at: Date.parse('2026-06-01T12:00:00Z') / 1000,
    });
    t.clock.advance(60);
    const byNumber = await record(contact.id, {
      action: 'ContactFavoritedListing',
      listing: { mls_number: 'TL-1001' },
    });
    expect(byNumber.json().data.listing).toEqual({ ...SUMMARY, id: listingId });
    const touched = (await t.app.inject({ method: 'GET', url: `/contacts/${contact.id}`, headers: member.bare })).json()
      .data;
    expect(touched).toMatchObject({
      last_touch: Date.parse('2026-06-01T12:01:00Z') / 1000,
      last_touch_action: 'ContactFavoritedListing',
      next_touch: Date.parse('2026-06-08T12:01:00Z') / 1000,
    });
  });

  it('keeps a listing it does not hold when the client sent its summary; refuses a bare unknown one', async () => {
    const contact = await newContact();
    const kept = await record(contact.id, {
      action: 'ContactSharedListing',
      listing: { mls_number: 'ELSEWHERE-1', status: 'Pending', price: 1, address: '1 Far Rd' },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data.listing).toEqual({
      id: null,
      mls: null,
      mls_number: 'ELSEWHERE-1',
      status: 'Pending',
      price: 1,
      address: '1 Far Rd',
    });
    const unknownId = await record(contact.id, {
      action: 'ContactViewedListing',
      listing: { id: '6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e' },
    });
    expect(unknownId.statusCode).toBe(400);
    expect(unknownId.json().attributes).toHaveProperty(['listing.id']);
    const unknownNumber = await record(contact.id, { action: 'ContactViewedListing', listing: { mls_number: 'NOPE' } });
    expect(unknownNumber.json().attributes).toHaveProperty(['listing.mls_number']);
  });

  it.each([
    [{ action: 'ContactViewedListing' }, 'listing'],
    [{ action: 'ContactCreatedSearch', listing: { id: '6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e' } }, 'search'],
    [{ action: 'ContactViewedListing', listing: { mls_number: 'TL-1001' }, search: { q: 'x' } }, 'search'],
    [{ action: 'ContactLeadCaptured' }, 'lead'],
    [{ action: 'viewed' }, 'action'],
    [{ action: 'ContactViewedListing', listing: { mls_number: 'TL-1001' }, notes: 'a\u0000b' }, 'notes'],
    [{ action: 'ContactSearchedListings', search: { q: 'bad\u0000' } }, 'search.q'],
    [{ action: 'ContactViewedListing', listing: { mls_number: 'TL-1001', price: 1e300 } }, 'listing.price'],
    [{ action: 'ContactViewedListing', listing: 'TL-1001' }, 'listing'],
  ])('refuses %j naming %s, writing nothing', async (payload, field) => {
    const contact = await newContact();
    const events = (await outboxRows(t.deps, member.brand)).length;
    const res = await record(contact.id, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().attributes)).toContain(field);
    expect(await outboxRows(t.deps, member.brand)).toHaveLength(events);
    const timeline = await t.app.inject({
      method: 'GET',
      url: `/contacts/${contact.id}/timeline`,
      headers: member.bare,
    });
    expect(timeline.json().info.total).toBe(0);
  });

  it('accepts other Contact<Verb><Object> actions with any attachment, dropping unknown keys', async () => {
    const contact = await newContact();
    const res = await record(contact.id, {
      action: 'ContactOpenedEmail',
      search: { title: 'Uptown', extra: 'dropped' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.search).toEqual({ title: 'Uptown' });
  });
});

describe('events', () => {
  it('records the Activities event with the spec §6 payload and a Contacts update, in one transaction', async () => {
    const own = await crmUser(t.deps);
    const contact = await newContact(own.headers);
    const activity = (
      await record(contact.id, { action: 'ContactViewedListing', listing: { id: listingId } }, own.bare)
    ).json().data;
    const rows = await outboxRows(t.deps, own.brand);
    expect(rows.map((r) => [r.topic, r.event])).toEqual([
      ['Contacts', 'create'],
      ['Activities', 'ContactViewedListing'],
      ['Contacts', 'update'],
    ]);
    expect(rows[1]?.subject).toBe(activity.id);
    expect(rows[1]?.payload).toEqual({
      activity: {
        id: activity.id,
        action: 'ContactViewedListing',
        created_at: activity.created_at,
        contact: contact.id,
        listing: { ...SUMMARY, id: listingId },
      },
    });
    expect((rows[2]?.payload as { contact: { last_touch_action: string } }).contact.last_touch_action).toBe(
      'ContactViewedListing',
    );
  });
});

describe('reading', () => {
  it('pages newest first with an exact total', async () => {
    const contact = await newContact();
    for (const n of [1, 2, 3]) {
      t.clock.advance(60);
      await record(contact.id, { action: 'ContactSearchedListings', search: { q: `search ${n}` } });
    }
    const page = async (query: string) =>
      (
        await t.app.inject({ method: 'GET', url: `/contacts/${contact.id}/timeline${query}`, headers: member.bare })
      ).json();
    const first = await page('?limit=2');
    expect(first.data.map((a: { search: { q: string } }) => a.search.q)).toEqual(['search 3', 'search 2']);
    expect(first.info).toEqual({ count: 2, total: 3 });
    const second = await page('?start=2&limit=2');
    expect(second.data.map((a: { search: { q: string } }) => a.search.q)).toEqual(['search 1']);
    const huge = await t.app.inject({
      method: 'GET',
      url: `/contacts/${contact.id}/timeline?start=100000000000000000000`,
      headers: member.bare,
    });
    expect(huge.statusCode).toBe(400);
  });

  it('another brand’s contact has no timeline for you (404), a deleted contact neither', async () => {
    const contact = await newContact();
    const stranger = await crmUser(t.deps);
    expect(
      (await t.app.inject({ method: 'GET', url: `/contacts/${contact.id}/timeline`, headers: stranger.bare }))
        .statusCode,
    ).toBe(404);
    expect((await record(contact.id, { action: 'ContactOpenedEmail' }, stranger.bare)).statusCode).toBe(404);
    await t.app.inject({ method: 'DELETE', url: `/contacts/${contact.id}`, headers: member.bare });
    expect((await record(contact.id, { action: 'ContactOpenedEmail' })).statusCode).toBe(404);
  });
});
