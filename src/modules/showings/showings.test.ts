// Showings: create/read/update, the contact's timeline, times, access, the brand's list (range, status,
// paging, exact total) and the Showings events (to the showing's brand only).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { crmUser, outboxRows } from '../../../test/helpers/contacts.js';

const t = useTestApp({ now: new Date('2026-06-01T12:00:00Z') });
let agent: Awaited<ReturnType<typeof crmUser>>;
let parentBrand: string;
let listingId: string;
const T0 = Date.parse('2026-06-10T15:00:00Z') / 1000;

beforeAll(async () => {
  parentBrand = (await createBrand(t.deps, { name: 'Brokerage' })).id;
  const office = (await createBrand(t.deps, { name: 'Office', parent: parentBrand })).id;
  agent = await crmUser(t.deps, { brand: office });
  listingId = (
    await t.deps.db
      .insertInto('listings')
      .values({
        mls: 'NTREIS',
        mls_number: 'SH-1',
        status: 'Active',
        price: 350000,
        full_address: '5 Birch Ln, Dallas, TX',
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

const create = (payload: object, headers: Record<string, string> = agent.headers) =>
  t.app.inject({ method: 'POST', url: '/showings', headers, payload });
const patch = (id: string, payload: object, headers: Record<string, string> = agent.bare) =>
  t.app.inject({ method: 'PATCH', url: `/showings/${id}`, headers, payload });
const showingCount = async () =>
  Number(
    (
      await t.deps.db
        .selectFrom('showings')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const timeline = async (contact: string) =>
  (await t.app.inject({ method: 'GET', url: `/contacts/${contact}/timeline`, headers: agent.bare })).json().data as {
    action: string;
    listing: { id: string };
  }[];

describe('showings', () => {
  it('schedules a showing with a contact: the timeline activity and the showing.created event', async () => {
    const contact = (
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: agent.headers,
        payload: { first_name: 'Viewer' },
      })
    ).json().data;
    const res = await create({
      listing: listingId,
      contact: contact.id,
      start_time: T0,
      end_time: T0 + 1800,
      notes: 'Gate code 1234',
    });
    expect(res.statusCode, res.body).toBe(200);
    const showing = res.json().data;
    expect(showing).toMatchObject({
      type: 'showing',
      brand: agent.brand,
      listing: listingId,
      contact: contact.id,
      agent: agent.user,
      start_time: T0,
      end_time: T0 + 1800,
      status: 'Requested',
      notes: 'Gate code 1234',
      feedback: null,
    });
    expect(
      (await t.app.inject({ method: 'GET', url: `/showings/${showing.id}`, headers: agent.bare })).json().data,
    ).toEqual(showing);
    expect((await timeline(contact.id))[0]).toMatchObject({
      action: 'ContactScheduledShowing',
      listing: { id: listingId },
    });

    t.clock.advance(60);
    const done = await patch(showing.id, { status: 'Completed', feedback: 'Liked the yard' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ status: 'Completed', feedback: 'Liked the yard' });
    expect((await timeline(contact.id))[0]).toMatchObject({ action: 'ContactAttendedShowing' });

    const events = (await outboxRows(t.deps, agent.brand)).filter(
      (e) => e.topic === 'Showings' && e.subject === showing.id,
    );
    expect(events.map((e) => e.event)).toEqual(['showing.created', 'showing.updated']);
    expect(events[1]?.payload).toMatchObject({ showing: { id: showing.id, status: 'Completed' } });
    // To the showing's brand only: nothing is recorded for the parent brand.
    expect((await outboxRows(t.deps, parentBrand)).filter((e) => e.topic === 'Showings')).toEqual([]);
  });

  it('refuses bad input and other brands’ records, writing nothing', async () => {
    const before = await showingCount();
    const early = await create({ listing: listingId, start_time: T0, end_time: T0 - 60 });
    expect(early.statusCode).toBe(400);
    expect(early.json().attributes).toHaveProperty(['end_time']);
    expect((await create({ listing: listingId, start_time: T0, end_time: T0 + 60, status: 'Maybe' })).statusCode).toBe(
      400,
    );
    expect(
      (await create({ listing: '00000000-0000-4000-8000-00000000dead', start_time: T0, end_time: T0 + 60 })).statusCode,
    ).toBe(404);
    const other = await crmUser(t.deps);
    const theirs = (
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: other.headers,
        payload: { first_name: 'Theirs' },
      })
    ).json().data;
    expect(
      (await create({ listing: listingId, contact: theirs.id, start_time: T0, end_time: T0 + 60 })).statusCode,
    ).toBe(404);
    expect(
      (await create({ listing: listingId, agent: other.user, start_time: T0, end_time: T0 + 60 })).statusCode,
    ).toBe(404);
    expect(await showingCount()).toBe(before);

    const mine = (await create({ listing: listingId, start_time: T0, end_time: T0 + 60 })).json().data;
    expect((await patch(mine.id, { end_time: T0 - 1 })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/showings/${mine.id}`, headers: other.bare })).statusCode).toBe(
      404,
    );
    expect((await patch(mine.id, { status: 'Cancelled' }, other.bare)).statusCode).toBe(404);
    const dealsOnly = await crmUser(t.deps, { brand: agent.brand, acl: ['Deals'] });
    expect(
      (await t.app.inject({ method: 'GET', url: `/showings/${mine.id}`, headers: dealsOnly.bare })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/showings/${mine.id}`, headers: agent.bare })).json().data.status,
    ).toBe('Requested');
  });

  it('lists the brand’s showings by time range and status, paged, with the exact total', async () => {
    const lister = await crmUser(t.deps);
    const starts = [0, 1, 2, 3, 4].map((d) => T0 + d * 86_400);
    const ids: string[] = [];
    for (const [i, start] of starts.entries()) {
      const res = await create(
        {
          listing: listingId,
          start_time: start,
          end_time: start + 3600,
          status: i % 2 === 0 ? 'Confirmed' : 'Requested',
        },
        lister.headers,
      );
      ids.push(res.json().data.id);
    }
    const list = (query: string, headers = lister.bare) =>
      t.app.inject({ method: 'GET', url: `/brands/${lister.brand}/showings${query}`, headers });
    const all = await list('');
    expect(all.json().data.map((s: { id: string }) => s.id)).toEqual(ids);
    expect(all.json().info).toEqual({ count: 5, total: 5 });
    const ranged = await list(`?from=${starts[1]}&to=${starts[4]}&limit=2&start=1`);
    expect(ranged.json().data.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[3]]);
    expect(ranged.json().info).toEqual({ count: 2, total: 3 });
    const confirmed = await list('?status[]=Confirmed');
    expect(confirmed.json().data.map((s: { id: string }) => s.id)).toEqual([ids[0], ids[2], ids[4]]);
    expect((await list('?status[]=Confirmed&status[]=Requested')).json().info.total).toBe(5);
    expect((await list('?limit=1001')).statusCode).toBe(400);
    expect((await list('', agent.bare)).statusCode).toBe(403);
  });
});
