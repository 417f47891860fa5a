// Leads: channels, POST /leads (WordPress plugin body), the public capture endpoint, dedupe by email then by
// phone, tags, the ContactLeadCaptured activity, rate limits, bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { crmUser, outboxRows } from '../../../test/helpers/contacts.js';
import { attemptKey } from '../../platform/attempts.js';
import { LEAD_CAPTURE_LIMITS } from './leads.service.js';

const t = useTestApp({ now: new Date('2026-07-01T09:00:00Z') });
let member: Awaited<ReturnType<typeof crmUser>>;
let channel: { id: string; brand: string };
let listingId: string;

beforeAll(async () => {
  member = await crmUser(t.deps);
  listingId = (
    await t.deps.db
      .insertInto('listings')
      .values({
        mls: 'NTREIS',
        mls_number: 'LD-77',
        status: 'Active',
        price: 300000,
        full_address: '9 Elm St, Dallas, TX',
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const res = await t.app.inject({
    method: 'POST',
    url: `/brands/${member.brand}/leads/channels`,
    headers: member.bare,
    payload: { title: 'Website form' },
  });
  expect(res.statusCode, res.body).toBe(200);
  channel = res.json().data;
});

const webhook = (payload: object, channelId = channel.id, ip = '203.0.113.7') =>
  t.app.inject({ method: 'POST', url: `/leads/channels/${channelId}/webhook`, payload, remoteAddress: ip });
const contactsOf = async (brand: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: '/contacts?order=%2Bcreated_at',
      headers: { ...member.bare, 'x-rechat-brand': brand },
    })
  ).json().data;
const timelineOf = async (id: string) =>
  (await t.app.inject({ method: 'GET', url: `/contacts/${id}/timeline`, headers: member.bare })).json().data;

describe('channels', () => {
  it('creates and lists a brand’s channels (CRM needed; another brand is 403)', async () => {
    expect(channel).toMatchObject({
      type: 'lead_channel',
      brand: member.brand,
      user: member.user,
      title: 'Website form',
      source_type: 'Website',
      capture_count: 0,
      last_capture_at: null,
    });
    const list = await t.app.inject({
      method: 'GET',
      url: `/brands/${member.brand}/leads/channels`,
      headers: member.bare,
    });
    expect(list.json().data.map((c: { id: string }) => c.id)).toEqual([channel.id]);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/brands/${member.brand}/leads/channels?start=100000000000000000000`,
          headers: member.bare,
        })
      ).statusCode,
    ).toBe(400);
    const stranger = await crmUser(t.deps);
    expect(
      (await t.app.inject({ method: 'GET', url: `/brands/${member.brand}/leads/channels`, headers: stranger.bare }))
        .statusCode,
    ).toBe(403);
    const noCrm = await crmUser(t.deps, { brand: member.brand, acl: ['Marketing'] });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/brands/${member.brand}/leads/channels`,
          headers: noCrm.bare,
          payload: {},
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('capture endpoint (no token)', () => {
  it('creates a contact with the lead’s details and a ContactLeadCaptured activity with its listing; 204', async () => {
    const res = await webhook({
      first_name: 'Lena',
      last_name: 'Lead',
      email: 'Lena.Lead@Example.com',
      phone_number: '(469) 555-0111',
      tag: ['Website', 'Buyer'],
      lead_source: 'example.com',
      note: 'Wants a yard',
      referer_url: 'https://example.com/listings/ld-77',
      listing: { mls_number: 'LD-77' },
      assignees: ['agent@example.com'],
      unknown: 'dropped',
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    const [contact] = await contactsOf(member.brand);
    expect(contact).toMatchObject({
      first_name: 'Lena',
      last_name: 'Lead',
      emails: ['Lena.Lead@Example.com'],
      phone_numbers: ['+14695550111'],
      tags: ['Website', 'Buyer'],
      source_type: 'Website',
      source: 'example.com',
      user_id: member.user,
      created_for: 'lead_capture',
      last_touch_action: 'ContactLeadCaptured',
    });
    const [activity] = await timelineOf(contact.id);
    expect(activity).toMatchObject({
      action: 'ContactLeadCaptured',
      listing: {
        id: listingId,
        mls: 'NTREIS',
        mls_number: 'LD-77',
        status: 'Active',
        price: 300000,
        address: '9 Elm St, Dallas, TX',
      },
      lead: {
        first_name: 'Lena',
        email: 'Lena.Lead@Example.com',
        note: 'Wants a yard',
        lead_channel: channel.id,
        tag: ['Website', 'Buyer'],
      },
    });
    const channels = (
      await t.app.inject({ method: 'GET', url: `/brands/${member.brand}/leads/channels`, headers: member.bare })
    ).json().data;
    expect(channels[0]).toMatchObject({ capture_count: 1, last_capture_at: Date.parse('2026-07-01T09:00:00Z') / 1000 });
  });

  it('dedupes by email (any case), then by phone, adding tags and missing details', async () => {
    expect((await webhook({ email: 'LENA.LEAD@example.COM', tag: ['Seller'] })).statusCode).toBe(204);
    expect(
      (
        await webhook({
          first_name: 'Someone',
          phone_number: '+1 469 555 0111',
          email: 'other@example.com',
          tag: ['Phone'],
        })
      ).statusCode,
    ).toBe(204);
    const all = await contactsOf(member.brand);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      first_name: 'Lena',
      emails: ['Lena.Lead@Example.com', 'other@example.com'],
      tags: ['Website', 'Buyer', 'Seller', 'Phone'],
    });
    expect(await timelineOf(all[0].id)).toHaveLength(3);
  });

  it('records the Activities event and Contacts events in the outbox', async () => {
    const rows = await outboxRows(t.deps, member.brand);
    expect(rows.filter((r) => r.topic === 'Activities').map((r) => r.event)).toEqual([
      'ContactLeadCaptured',
      'ContactLeadCaptured',
      'ContactLeadCaptured',
    ]);
    expect(rows.filter((r) => r.topic === 'Contacts').map((r) => r.event)[0]).toBe('create');
  });

  it('keeps a lead whose listing we do not hold', async () => {
    expect((await webhook({ email: 'far@example.com', listing: { mls_number: 'ELSEWHERE' } })).statusCode).toBe(204);
    const far = (await contactsOf(member.brand)).find((c: { email: string }) => c.email === 'far@example.com');
    expect((await timelineOf(far.id))[0].listing).toMatchObject({ id: null, mls_number: 'ELSEWHERE' });
  });

  it.each([
    [{ first_name: 'No contact details' }, 'email'],
    [{ email: 'not an email' }, 'email'],
    [{ phone_number: 'banana' }, 'phone_number'],
    [{ email: 'nul@example.com', note: 'a\u0000b' }, 'note'],
    [{ email: 'tags@example.com', tag: [1] }, 'tag.0'],
  ])('refuses %j naming %s, writing nothing', async (payload, field) => {
    const before = (await outboxRows(t.deps, member.brand)).length;
    const res = await webhook(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().attributes)).toContain(field);
    expect(await outboxRows(t.deps, member.brand)).toHaveLength(before);
  });

  it('an unknown channel is 404, a malformed one 400', async () => {
    expect((await webhook({ email: 'x@example.com' }, '6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e')).statusCode).toBe(404);
    expect((await webhook({ email: 'x@example.com' }, 'not-a-channel')).statusCode).toBe(400);
  });

  it('limits captures per IP per hour (429 with Retry-After), other IPs still pass', async () => {
    const ip = '198.51.100.9';
    // an IP that used its hour's budget half an hour ago
    const now = t.clock.now();
    await t.deps.db
      .insertInto('attempt_counters')
      .values({
        key: attemptKey('lead-ip', ip, LEAD_CAPTURE_LIMITS.perIp).key,
        window_started_at: now,
        failures: 100,
        consecutive: 100,
        blocked_until: new Date(now.getTime() + 1800_000),
        updated_at: now,
      })
      .execute();
    const blocked = await webhook({ email: 'rate@example.com' }, channel.id, ip);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(1700);
    expect((await webhook({ email: 'rate@example.com' }, channel.id, '198.51.100.10')).statusCode).toBe(204);
  });

  it('counts every capture: the 101st from one IP within the hour is refused', async () => {
    const own = await crmUser(t.deps);
    const ownChannel = (
      await t.app.inject({ method: 'POST', url: `/brands/${own.brand}/leads/channels`, headers: own.bare, payload: {} })
    ).json().data;
    const ip = '192.0.2.55';
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++)
      statuses.push((await webhook({ email: 'same@example.com' }, ownChannel.id, ip)).statusCode);
    expect(statuses.slice(0, 100).every((s) => s === 204)).toBe(true);
    expect(statuses[100]).toBe(429);
    t.clock.advance(3601);
    expect((await webhook({ email: 'same@example.com' }, ownChannel.id, ip)).statusCode).toBe(204);
  });
});

describe('POST /leads (WordPress plugin)', () => {
  it('captures a lead in the brand context with the channel from metadata', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/leads',
      headers: member.headers,
      payload: {
        metadata: { lead_channel: channel.id },
        lead: {
          first_name: 'Wendy',
          last_name: 'Press',
          email: 'wendy@example.com',
          source_type: 'WordPress',
          lead_source: 'wp',
          tag: ['WP'],
          listing_id: listingId,
          note: 'Hi',
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const contact = res.json().data;
    expect(contact).toMatchObject({
      type: 'contact',
      display_name: 'Wendy Press',
      source_type: 'WordPress',
      tags: ['WP'],
      brand: member.brand,
    });
    const [activity] = await timelineOf(contact.id);
    expect(activity).toMatchObject({
      action: 'ContactLeadCaptured',
      listing: { id: listingId },
      lead: { lead_channel: channel.id, note: 'Hi' },
    });
  });

  it('finds the contact by phone when the email is new; MLS number as listing_id', async () => {
    const phone = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: member.headers,
      payload: { first_name: 'Phoebe', phone_number: '+12145550999' },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/leads',
      headers: member.headers,
      payload: { lead: { email: 'phoebe@example.com', phone_number: '214-555-0999', listing_id: 'LD-77' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: phone.json().data.id,
      emails: ['phoebe@example.com'],
      phone_numbers: ['+12145550999'],
    });
    expect((await timelineOf(phone.json().data.id))[0].listing).toMatchObject({ id: listingId });
  });

  it('refuses another brand’s channel, bad lead fields (named under lead.), and no CRM', async () => {
    const other = await crmUser(t.deps);
    const otherChannel = (
      await t.app.inject({
        method: 'POST',
        url: `/brands/${other.brand}/leads/channels`,
        headers: other.bare,
        payload: {},
      })
    ).json().data;
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/leads',
      headers: member.headers,
      payload: { metadata: { lead_channel: otherChannel.id }, lead: { email: 'a@example.com' } },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().attributes).toHaveProperty(['metadata.lead_channel']);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/leads',
      headers: member.headers,
      payload: { lead: { email: 'bad', phone_number: 'x1' } },
    });
    expect(Object.keys(bad.json().attributes).sort()).toEqual(['lead.email', 'lead.phone_number']);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/leads',
      headers: member.headers,
      payload: { metadata: {} },
    });
    expect(missing.statusCode).toBe(400);
    const noCrm = await crmUser(t.deps, { brand: member.brand, acl: ['Deals'] });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/leads',
          headers: noCrm.headers,
          payload: { lead: { email: 'a@example.com' } },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/leads', payload: { lead: { email: 'a@example.com' } } })).statusCode,
    ).toBe(401);
  });
});
