// Create, read, update, delete of one contact; the derived fields; the outbox events of each change.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { crmUser, outboxRows } from '../../../test/helpers/contacts.js';

const t = useTestApp();
let member: Awaited<ReturnType<typeof crmUser>>;
beforeAll(async () => {
  member = await crmUser(t.deps);
});

const create = (payload: object, headers: Record<string, string> = member.headers) =>
  t.app.inject({ method: 'POST', url: '/contacts', headers, payload });

describe('create and read', () => {
  it('creates a contact with every field and reads it back', async () => {
    const res = await create({
      title: 'Dr.',
      first_name: ' Ada ',
      middle_name: 'K',
      last_name: 'Lovelace',
      nickname: 'Countess',
      partner_first_name: 'William',
      partner_last_name: 'King',
      partner_email: 'will@example.com',
      company: 'Analytical Engines',
      job_title: 'Programmer',
      emails: ['Ada.Lovelace@Example.com', 'ada@work.example.org'],
      phone_numbers: ['(214) 555-0123', '+44 20 7946 0958'],
      birthday: '1815-12-10',
      home_anniversary: '0000-06-01',
      wedding_anniversary: '--07-08',
      website: ['https://ada.example.com'],
      tags: ['Buyer', 'VIP', 'Buyer'],
      address: [{ type: 'Home', line1: '12 St James Sq', city: 'London', postcode: 'SW1Y 4JH', country: 'GB' }],
      source_type: 'ExplicitlyCreated',
      touch_freq: 30,
      unsubscribed: true,
      unknown_field: 'ignored',
    });
    expect(res.statusCode, res.body).toBe(200);
    const contact = res.json().data;
    expect(contact).toMatchObject({
      type: 'contact',
      brand: member.brand,
      brand_id: member.brand,
      user_id: member.user,
      display_name: 'Ada Lovelace',
      sort_field: 'ada lovelace',
      partner_name: 'William King',
      first_name: 'Ada',
      email: 'Ada.Lovelace@Example.com',
      primary_email: 'Ada.Lovelace@Example.com',
      emails: ['Ada.Lovelace@Example.com', 'ada@work.example.org'],
      phone_number: '+12145550123',
      primary_phone_number: '+12145550123',
      phone_numbers: ['+12145550123', '+442079460958'],
      birthday: '1815-12-10',
      home_anniversary: '0000-06-01',
      wedding_anniversary: '0000-07-08',
      tags: ['Buyer', 'VIP'],
      address: [
        {
          type: 'Home',
          line1: '12 St James Sq',
          city: 'London',
          postcode: 'SW1Y 4JH',
          country: 'GB',
          full: '12 St James Sq, London, SW1Y 4JH, GB',
        },
      ],
      parked: false,
      unsubscribed: true,
      touch_freq: 30,
      last_touch: null,
      next_touch: null,
      created_for: 'direct_request',
      deleted_at: null,
    });
    // Every key of spec §2.7's address objects, null where the address has none.
    expect(contact.address).toEqual([
      {
        city: 'London',
        full: '12 St James Sq, London, SW1Y 4JH, GB',
        name: null,
        type: 'Home',
        extra: null,
        line1: '12 St James Sq',
        line2: null,
        state: null,
        country: 'GB',
        postcode: 'SW1Y 4JH',
      },
    ]);
    expect(contact).not.toHaveProperty('unknown_field');
    expect(contact).not.toHaveProperty('triggers');
    expect(contact.created_at).toBeCloseTo(t.clock.now().getTime() / 1000, 0);

    const got = await t.app.inject({ method: 'GET', url: `/contacts/${contact.id}`, headers: member.bare });
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().data).toEqual(contact);
  });

  it.each([
    [{ first_name: 'Grace' }, 'Grace'],
    [{ last_name: 'Hopper' }, 'Hopper'],
    [{ marketing_name: 'The Hoppers', nickname: 'Amazing' }, 'The Hoppers'],
    [{ nickname: 'Amazing' }, 'Amazing'],
    [{ email: 'Grace@Navy.example.mil', phone_number: '+12025550143' }, 'Grace@Navy.example.mil'],
    [{ phone_number: '202-555-0143' }, '+12025550143'],
    [{ company: 'US Navy' }, 'US Navy'],
    [{}, 'Guest'],
  ])('derives display_name from %j', async (fields, expected) => {
    const res = await create(fields);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.display_name).toBe(expected);
  });

  it('embeds triggers (none yet) when associated', async () => {
    const id = (await create({ first_name: 'Trig' })).json().data.id;
    const res = await t.app.inject({
      method: 'GET',
      url: `/contacts/${id}?associations[]=contact.triggers`,
      headers: member.bare,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.triggers).toEqual([]);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/contacts/6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e',
          headers: member.bare,
        })
      ).statusCode,
    ).toBe(404);
    const bad = await t.app.inject({ method: 'GET', url: '/contacts/not-a-uuid', headers: member.bare });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('Validation');
  });
});

describe('update', () => {
  it('changes only the fields sent, keeps derived fields in step, and null clears', async () => {
    const contact = (
      await create({
        first_name: 'Alan',
        last_name: 'Turing',
        emails: ['alan@example.com', 'turing@example.org'],
        tags: ['a'],
      })
    ).json().data;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/contacts/${contact.id}`,
      headers: member.bare,
      payload: { last_name: null, email: 'TURING@example.org', tags: ['b', 'c'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json().data;
    expect(updated).toMatchObject({
      first_name: 'Alan',
      last_name: null,
      display_name: 'Alan',
      sort_field: 'alan',
      tags: ['b', 'c'],
      updated_for: 'direct_request',
    });
    // the primary moves to the front, written as the client wrote it this time, without a duplicate
    expect(updated.emails).toEqual(['TURING@example.org', 'alan@example.com']);
    expect(updated.primary_email).toBe('TURING@example.org');
    const cleared = await t.app.inject({
      method: 'PATCH',
      url: `/contacts/${contact.id}`,
      headers: member.bare,
      payload: { first_name: null },
    });
    expect(cleared.json().data.display_name).toBe('TURING@example.org');
  });

  it('computes next_touch from last_touch and touch_freq', async () => {
    const contact = (await create({ first_name: 'Touchy', touch_freq: 10 })).json().data;
    await t.deps.db
      .updateTable('contacts')
      .set({ last_touch: new Date('2026-01-01T00:00:00Z') })
      .where('id', '=', contact.id)
      .execute();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/contacts/${contact.id}`,
      headers: member.bare,
      payload: { touch_freq: 7 },
    });
    expect(res.json().data.next_touch).toBe(Date.parse('2026-01-08T00:00:00Z') / 1000);
  });

  it('reads timestamps alike in GET /contacts/:id (one JSON column) and in lists (columns): whole milliseconds', async () => {
    const contact = (await create({ first_name: 'Micro', touch_freq: 3 })).json().data;
    await sql`update contacts set last_touch = '2026-01-01T00:00:00.123987Z', next_touch = '1969-07-20T20:17:40.999999Z' where id = ${contact.id}`.execute(
      t.deps.db,
    );
    const got = (await t.app.inject({ method: 'GET', url: `/contacts/${contact.id}`, headers: member.bare })).json()
      .data;
    expect([got.last_touch, got.next_touch]).toEqual([
      Date.parse('2026-01-01T00:00:00.123Z') / 1000,
      Date.parse('1969-07-20T20:17:40.999Z') / 1000,
    ]);
    const listed = (await t.app.inject({ method: 'GET', url: '/contacts?q=micro', headers: member.bare })).json().data;
    expect(listed).toEqual([got]);
  });
});

describe('delete', () => {
  it('soft-deletes one contact: 204, then 404 and gone from lists', async () => {
    const contact = (await create({ first_name: 'Gone' })).json().data;
    const res = await t.app.inject({ method: 'DELETE', url: `/contacts/${contact.id}`, headers: member.bare });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(
      (await t.app.inject({ method: 'GET', url: `/contacts/${contact.id}`, headers: member.bare })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/contacts/${contact.id}`, headers: member.bare })).statusCode,
    ).toBe(404);
    const row = await t.deps.db
      .selectFrom('contacts')
      .select(['deleted_at', 'deleted_for'])
      .where('id', '=', contact.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row.deleted_for).toBe('direct_request');
  });

  it('bulk-deletes by ids, all or nothing', async () => {
    const ids = await Promise.all(
      ['x', 'y', 'z'].map(async (name) => (await create({ first_name: name })).json().data.id as string),
    );
    const missing = '6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e';
    const refused = await t.app.inject({
      method: 'DELETE',
      url: '/contacts',
      headers: member.bare,
      payload: { ids: [ids[0], missing] },
    });
    expect(refused.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/contacts/${ids[0]}`, headers: member.bare })).statusCode).toBe(
      200,
    );
    const res = await t.app.inject({ method: 'DELETE', url: '/contacts', headers: member.bare, payload: { ids } });
    expect(res.statusCode).toBe(204);
    for (const id of ids)
      expect((await t.app.inject({ method: 'GET', url: `/contacts/${id}`, headers: member.bare })).statusCode).toBe(
        404,
      );
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/contacts', headers: member.bare, payload: { ids: [] } }))
        .statusCode,
    ).toBe(400);
  });
});

describe('outbox', () => {
  it('records Contacts create, update and delete events with the record, in order', async () => {
    const own = await crmUser(t.deps);
    const contact = (await create({ first_name: 'Evented' }, own.headers)).json().data;
    await t.app.inject({
      method: 'PATCH',
      url: `/contacts/${contact.id}`,
      headers: own.bare,
      payload: { last_name: 'Person' },
    });
    await t.app.inject({ method: 'DELETE', url: `/contacts/${contact.id}`, headers: own.bare });
    const rows = await outboxRows(t.deps, own.brand);
    expect(rows.map((r) => [r.topic, r.event, r.subject])).toEqual([
      ['Contacts', 'create', contact.id],
      ['Contacts', 'update', contact.id],
      ['Contacts', 'delete', contact.id],
    ]);
    expect((rows[1]?.payload as { contact: { display_name: string } }).contact.display_name).toBe('Evented Person');
    expect((rows[2]?.payload as { contact: { deleted_at: number | null } }).contact.deleted_at).not.toBeNull();
  });

  it('records nothing when the change is refused', async () => {
    const own = await crmUser(t.deps);
    const contact = (await create({ first_name: 'Stable' }, own.headers)).json().data;
    const before = (await outboxRows(t.deps, own.brand)).length;
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/contacts/${contact.id}`,
          headers: own.bare,
          payload: { birthday: '2025-02-30' },
        })
      ).statusCode,
    ).toBe(400);
    expect((await create({ contacts: [{ first_name: 'ok' }, { email: 'nope' }] }, own.headers)).statusCode).toBe(400);
    expect(await outboxRows(t.deps, own.brand)).toHaveLength(before);
  });
});
