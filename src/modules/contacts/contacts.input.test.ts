// Bad input is a 400 naming each field (by index in a bulk body) and writes nothing; bulk is all or nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { normalizeDate, normalizePhone } from './contacts.input.js';
import { crmUser, outboxRows } from '../../../test/helpers/contacts.js';

const t = useTestApp();
let member: Awaited<ReturnType<typeof crmUser>>;
beforeAll(async () => {
  member = await crmUser(t.deps);
});

const create = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/contacts', headers: member.headers, payload: payload as object });
const stored = async () =>
  Number(
    (
      await t.deps.db
        .selectFrom('contacts')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('brand', '=', member.brand)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('dates and phone numbers', () => {
  it.each([
    ['2024-02-29', '2024-02-29'],
    ['0000-02-29', '0000-02-29'],
    ['--02-29', '0000-02-29'],
    ['1900-02-29', undefined],
    ['2025-02-30', undefined],
    ['2025-13-01', undefined],
    ['2025-00-10', undefined],
    ['2025-1-1', undefined],
    ['10/12/1980', undefined],
  ])('date %s → %s', (input, expected) => {
    expect(normalizeDate(input)).toBe(expected);
  });

  it.each([
    ['(214) 555-0123', '+12145550123'],
    ['214.555.0123', '+12145550123'],
    ['+1 214 555 0123', '+12145550123'],
    ['+44 20 7946 0958', '+442079460958'],
    ['12', null],
    ['call me', null],
    ['+999 1234', null],
  ])('phone %s → %s', (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });
});

describe('refused input, nothing written', () => {
  it.each([
    [{ emails: ['not-an-email'] }, 'emails.0'],
    [{ email: 'a@b' }, 'email'],
    [{ phone_numbers: ['+1 214 555 0123', 'banana'] }, 'phone_numbers.1'],
    [{ phone_number: '12' }, 'phone_number'],
    [{ birthday: '2025-02-30' }, 'birthday'],
    [{ wedding_anniversary: '2025-02-29' }, 'wedding_anniversary'],
    [{ tags: ['ok', 7] }, 'tags.1'],
    [{ tags: 'vip' }, 'tags'],
    [{ tags: ['  '] }, 'tags.0'],
    [{ first_name: 'Nul\u0000l' }, 'first_name'],
    [{ address: [{ city: 'Ba\u0000d' }] }, 'address.0.city'],
    [{ last_name: 'Lone \ud800 surrogate' }, 'last_name'],
    [{ first_name: 'x'.repeat(201) }, 'first_name'],
    [{ first_name: 42 }, 'first_name'],
    [{ touch_freq: 2 ** 63 }, 'touch_freq'],
    [{ touch_freq: 1.5 }, 'touch_freq'],
    [{ parked: 'yes' }, 'parked'],
    [{ email: 'a@example.com', primary_email: 'b@example.com' }, 'primary_email'],
  ])('%j → 400 naming %s', async (payload, field) => {
    const before = await stored();
    const res = await create(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('Validation');
    expect(Object.keys(res.json().attributes)).toContain(field);
    expect(await stored()).toBe(before);
  });

  it('a 1e400 number, deep nesting and a 1 MB string are 4xx, never 5xx', async () => {
    const huge = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...member.headers, 'content-type': 'application/json' },
      payload: '{"touch_freq": 1e400}',
    });
    expect(huge.statusCode).toBe(400);
    let nested: unknown = 'deep';
    for (let i = 0; i < 200; i++) nested = [nested];
    expect((await create({ address: nested })).statusCode).toBe(400);
    expect((await create({ company: 'x'.repeat(1_000_000) })).statusCode).toBe(400);
  });

  it('PATCH refuses the same way and leaves the contact as it was', async () => {
    const contact = (await create({ first_name: 'Keep', birthday: '1990-01-01' })).json().data;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/contacts/${contact.id}`,
      headers: member.bare,
      payload: { first_name: 'Changed', birthday: '1990-02-30' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().attributes).toEqual({ birthday: [expect.any(String)] });
    const after = (await t.app.inject({ method: 'GET', url: `/contacts/${contact.id}`, headers: member.bare })).json()
      .data;
    expect(after).toMatchObject({ first_name: 'Keep', birthday: '1990-01-01', updated_at: contact.updated_at });
  });

  it('q or tags with NUL are a 400 naming them', async () => {
    const q = await t.app.inject({ method: 'GET', url: '/contacts?q=a%00b', headers: member.headers });
    expect(q.statusCode).toBe(400);
    expect(q.json().attributes).toHaveProperty('q');
    const tags = await t.app.inject({ method: 'GET', url: '/contacts?tags[]=a%00b', headers: member.headers });
    expect(tags.statusCode).toBe(400);
  });
});

describe('bulk', () => {
  const person = (i: number) => ({ first_name: `Bulk${i}`, emails: [`bulk${i}@example.com`], tags: ['bulk'] });

  it('creates up to 1,000 contacts in one request, with one event each', async () => {
    const own = await crmUser(t.deps);
    const contacts = Array.from({ length: 1000 }, (_, i) => person(i));
    const res = await t.app.inject({ method: 'POST', url: '/contacts', headers: own.headers, payload: { contacts } });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    expect(res.json().info).toEqual({ count: 1000, total: 1000 });
    expect(res.json().data[999]).toMatchObject({ display_name: 'Bulk999', email: 'bulk999@example.com' });
    const events = await outboxRows(t.deps, own.brand);
    expect(events).toHaveLength(1000);
    expect(new Set(events.map((e) => e.subject))).toEqual(new Set(res.json().data.map((c: { id: string }) => c.id)));
  });

  it('refuses 1,001 contacts', async () => {
    const before = await stored();
    const res = await create({ contacts: Array.from({ length: 1001 }, (_, i) => ({ first_name: `n${i}` })) });
    expect(res.statusCode).toBe(400);
    expect(res.json().attributes).toHaveProperty('contacts');
    expect(await stored()).toBe(before);
  });

  it('refuses the whole body when any record is bad, naming each by index', async () => {
    const before = await stored();
    const events = (await outboxRows(t.deps, member.brand)).length;
    const res = await create({
      contacts: [person(1), { ...person(2), birthday: '2025-02-30' }, person(3), { phone_numbers: ['nope'] }],
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().attributes).sort()).toEqual(['contacts.1.birthday', 'contacts.3.phone_numbers.0']);
    const schemaRefused = await create({ contacts: [person(1), { tags: [1] }] });
    expect(Object.keys(schemaRefused.json().attributes)).toEqual(['contacts.1.tags.0']);
    expect(await stored()).toBe(before);
    expect(await outboxRows(t.deps, member.brand)).toHaveLength(events);
  });
});
