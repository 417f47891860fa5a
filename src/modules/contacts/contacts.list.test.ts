// GET /contacts: prefix search over names, emails, phones and company; tags; order; paging; exact totals;
// GET /contacts/tags.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { prefixTerms } from '../../lib/search-words.js';
import { countContacts, DENSE_MATCHES, findContactsPage, listContacts } from './contacts.repository.js';
import { CONTACT_ORDER_KEYS } from './contacts.schemas.js';
import { crmUser } from '../../../test/helpers/contacts.js';

const t = useTestApp();
let member: Awaited<ReturnType<typeof crmUser>>;
const PEOPLE = [
  { first_name: 'Zoë', last_name: 'Adams', emails: ['zoe@acme.example'], tags: ['buyer'], company: 'Acme Realty' },
  { first_name: 'bob', last_name: 'Baker', phone_numbers: ['(214) 555-0188'], tags: ['seller', 'vip'] },
  { first_name: 'Carla', last_name: 'Cruz', emails: ['carla.cruz@mail.example'], tags: ['buyer', 'vip'] },
  { first_name: 'Dan', last_name: 'Diaz', company: 'Baker Brothers' },
  { marketing_name: 'Éva & Ed', phone_numbers: ['+44 20 7946 0000'], tags: ['seller'] },
];

beforeAll(async () => {
  member = await crmUser(t.deps);
  for (const [i, person] of PEOPLE.entries()) {
    t.clock.set(Date.parse('2026-03-01T00:00:00Z') + i * 60_000);
    const res = await t.app.inject({ method: 'POST', url: '/contacts', headers: member.headers, payload: person });
    expect(res.statusCode, res.body).toBe(200);
  }
  // another brand's contact never shows
  const other = await crmUser(t.deps);
  await t.app.inject({
    method: 'POST',
    url: '/contacts',
    headers: other.headers,
    payload: { first_name: 'Bobby', tags: ['buyer'] },
  });
});

async function list(query: string) {
  const res = await t.app.inject({ method: 'GET', url: `/contacts${query}`, headers: member.headers });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  return { names: (body.data as { display_name: string }[]).map((c) => c.display_name), info: body.info };
}

describe('order', () => {
  it('defaults to +display_name, ignoring case and accents', async () => {
    expect((await list('')).names).toEqual(['bob Baker', 'Carla Cruz', 'Dan Diaz', 'Éva & Ed', 'Zoë Adams']);
  });

  it.each([
    ['-display_name', ['Zoë Adams', 'Éva & Ed', 'Dan Diaz', 'Carla Cruz', 'bob Baker']],
    ['%2Bcreated_at', ['Zoë Adams', 'bob Baker', 'Carla Cruz', 'Dan Diaz', 'Éva & Ed']],
    ['+created_at', ['Zoë Adams', 'bob Baker', 'Carla Cruz', 'Dan Diaz', 'Éva & Ed']],
    ['-created_at', ['Éva & Ed', 'Dan Diaz', 'Carla Cruz', 'bob Baker', 'Zoë Adams']],
    ['-updated_at', ['Éva & Ed', 'Dan Diaz', 'Carla Cruz', 'bob Baker', 'Zoë Adams']],
  ])('order=%s', async (order, expected) => {
    expect((await list(`?order=${order}`)).names).toEqual(expected);
  });

  it('orders by last_touch with never-touched contacts last', async () => {
    const { data } = (await t.app.inject({ method: 'GET', url: '/contacts', headers: member.headers })).json();
    const byName = new Map((data as { id: string; display_name: string }[]).map((c) => [c.display_name, c.id]));
    await t.deps.db
      .updateTable('contacts')
      .set({ last_touch: new Date('2026-05-01T00:00:00Z') })
      .where('id', '=', byName.get('Dan Diaz')!)
      .execute();
    await t.deps.db
      .updateTable('contacts')
      .set({ last_touch: new Date('2026-04-01T00:00:00Z') })
      .where('id', '=', byName.get('Carla Cruz')!)
      .execute();
    expect((await list('?order=-last_touch')).names.slice(0, 2)).toEqual(['Dan Diaz', 'Carla Cruz']);
    expect((await list('?order=last_touch')).names.slice(0, 2)).toEqual(['Carla Cruz', 'Dan Diaz']);
  });

  it('refuses an unknown order', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/contacts?order=-password', headers: member.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().attributes).toHaveProperty('order');
  });
});

describe('search', () => {
  it.each([
    ['ba', ['bob Baker', 'Dan Diaz']], // last name, and a company word
    ['BAK', ['bob Baker', 'Dan Diaz']],
    ['bob ba', ['bob Baker']], // every word must match
    ['zoe', ['Zoë Adams']], // accents folded, the email too
    ['acme', ['Zoë Adams']], // email domain and company
    ['carla.cruz@mail', ['Carla Cruz']],
    ['(214) 555', ['bob Baker']],
    ['+1 214 555 01', ['bob Baker']],
    ['2145550188', ['bob Baker']],
    ['4420794', ['Éva & Ed']],
    ['eva', ['Éva & Ed']],
    ['nobody', []],
  ])('q=%s', async (q, expected) => {
    const res = await list(`?q=${encodeURIComponent(q)}`);
    expect(res.names).toEqual(expected);
    expect(res.info).toEqual({ count: expected.length, total: expected.length });
  });

  it('blank or punctuation-only q does not filter', async () => {
    expect((await list('?q=%20')).info.total).toBe(5);
    expect((await list(`?q=${encodeURIComponent("'&:*!")}`)).info.total).toBe(5);
  });
});

describe('page strategies', () => {
  it.each(
    CONTACT_ORDER_KEYS.flatMap(
      (order) =>
        [
          [order, false],
          [order, true],
        ] as const,
    ),
  )(
    'order %s (descending: %s): walking the order index and sorting the matches give the same pages',
    async (order, descending) => {
      for (const filter of [
        { brand: member.brand, words: prefixTerms('e'), tags: [] },
        { brand: member.brand, words: [], tags: ['vip', 'seller'] },
      ]) {
        const total = await countContacts(t.deps.db, filter);
        expect(total).toBeGreaterThan(1);
        for (const [start, limit] of [
          [0, 50],
          [1, 2],
        ] as const) {
          const page = { ...filter, order, descending, start, limit };
          const sorted = await listContacts(t.deps.db, { ...page, total });
          const walked = await listContacts(t.deps.db, { ...page, total: DENSE_MATCHES + 1 });
          expect(walked.map((c) => c.id)).toEqual(sorted.map((c) => c.id));
          expect(sorted.length).toBe(Math.min(limit, total - start));
        }
      }
    },
  );
});

describe('one-statement page', () => {
  it.each(
    CONTACT_ORDER_KEYS.flatMap(
      (order) =>
        [
          [order, false],
          [order, true],
        ] as const,
    ),
  )(
    'order %s (descending: %s): the page and total of one statement are those of the count and the page query',
    async (order, descending) => {
      const filters = [
        { brand: member.brand, words: prefixTerms('e'), tags: [] },
        { brand: member.brand, words: [], tags: ['vip', 'seller'] },
        { brand: member.brand, words: prefixTerms('nobody'), tags: [] },
        { brand: member.brand, words: [], tags: [] },
      ];
      for (const filter of filters) {
        const total = await countContacts(t.deps.db, filter);
        for (const [start, limit] of [
          [0, 50],
          [1, 2],
          [total, 5],
          [total + 3, 5],
        ] as const) {
          const page = { ...filter, order, descending, start, limit };
          const expected = await listContacts(t.deps.db, { ...page, total });
          const found = await findContactsPage(t.deps.db, page);
          expect(found.total).toBe(total);
          expect(found.rows).toEqual(expected);
        }
      }
    },
  );
});

describe('tags and paging', () => {
  it('filters by any of the tags, with q', async () => {
    expect((await list('?tags[]=vip')).names).toEqual(['bob Baker', 'Carla Cruz']);
    expect((await list('?tags[]=vip&tags[]=buyer')).names).toEqual(['bob Baker', 'Carla Cruz', 'Zoë Adams']);
    expect((await list('?tags=seller&q=ev')).names).toEqual(['Éva & Ed']);
  });

  it('pages with an exact total, also past the end', async () => {
    const first = await list('?limit=2');
    const second = await list('?start=2&limit=2');
    const third = await list('?start=4&limit=2');
    expect([...first.names, ...second.names, ...third.names]).toEqual((await list('')).names);
    expect(first.info).toEqual({ count: 2, total: 5 });
    expect(third.info).toEqual({ count: 1, total: 5 });
    expect((await list('?start=50')).info).toEqual({ count: 0, total: 5 });
    expect(
      (await t.app.inject({ method: 'GET', url: '/contacts?limit=1001', headers: member.headers })).statusCode,
    ).toBe(400);
    for (const start of ['100000000000000000000', '9223372036854775807', '-1', '1.5']) {
      expect(
        (await t.app.inject({ method: 'GET', url: `/contacts?start=${start}`, headers: member.headers })).statusCode,
      ).toBe(400);
    }
  });

  it('lists the brand’s tags with counts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/contacts/tags', headers: member.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      code: 'OK',
      data: [
        { type: 'contact_tag', tag: 'buyer', count: 2 },
        { type: 'contact_tag', tag: 'seller', count: 2 },
        { type: 'contact_tag', tag: 'vip', count: 2 },
      ],
      info: { count: 3, total: 3 },
    });
  });
});

describe('search words follow every change (contact_words, kept by triggers)', () => {
  it('a rename, a touch, a delete, a bulk create and a bulk delete', async () => {
    const own = await crmUser(t.deps);
    const search = async (q: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/contacts?q=${encodeURIComponent(q)}`,
        headers: own.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.info.total).toBe(body.data.length);
      return (body.data as { display_name: string }[]).map((c) => c.display_name);
    };
    const created = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: own.headers,
      payload: { first_name: 'Quentin', last_name: 'Quill' },
    });
    const id = created.json().data.id as string;
    expect(await search('quen')).toEqual(['Quentin Quill']);

    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/contacts/${id}`,
      headers: own.headers,
      payload: { first_name: 'Rupert', emails: ['rq@words.example'] },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await search('quen')).toEqual([]);
    expect(await search('rup qui')).toEqual(['Rupert Quill']);
    expect(await search('words')).toEqual(['Rupert Quill']);

    // a change that leaves the words alone keeps them (once, not twice)
    await t.deps.db
      .updateTable('contacts')
      .set({ last_touch: new Date('2026-05-01T00:00:00Z') })
      .where('id', '=', id)
      .execute();
    expect(await search('rup')).toEqual(['Rupert Quill']);
    const rows = await t.deps.db
      .selectFrom('contact_words')
      .select('word')
      .where('contact', '=', id)
      .orderBy('word')
      .execute();
    expect(rows.map((r) => r.word)).toEqual(['example', 'quill', 'rq', 'rupert', 'words']);

    expect((await t.app.inject({ method: 'DELETE', url: `/contacts/${id}`, headers: own.headers })).statusCode).toBe(
      204,
    );
    expect(await search('rup')).toEqual([]);
    expect(await t.deps.db.selectFrom('contact_words').select('word').where('contact', '=', id).execute()).toEqual([]);

    const bulk = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: own.headers,
      payload: {
        contacts: [
          { first_name: 'Sam', last_name: 'Quill' },
          { first_name: 'Sue', last_name: 'Quill' },
        ],
      },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(await search('quill')).toEqual(['Sam Quill', 'Sue Quill']);
    expect(await search('s quill')).toEqual(['Sam Quill', 'Sue Quill']);
    const ids = (bulk.json().data as { id: string }[]).map((c) => c.id);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/contacts', headers: own.headers, payload: { ids } })).statusCode,
    ).toBe(204);
    expect(await search('quill')).toEqual([]);
  });
});
