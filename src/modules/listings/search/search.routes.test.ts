// The endpoints: sort and paging, brands and boundaries, access, validation, deprecated routes and their headers.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../test/helpers/app.js';
import { addMembership, createBrand } from '../../../../test/helpers/factories.js';
import { prepareBoundary } from '../../boundaries/boundaries.model.js';
import { upsertBoundaries } from '../../boundaries/boundaries.repository.js';
import { compileFilters } from './filters.query.js';
import { runSearch } from './search.repository.js';
import { normalizeCriteria, resolveSort } from './search.validation.js';
import { insertListings, linkAgent, memberOfNewBrand, newTag } from '../../../../test/helpers/search-fixtures.js';

const t = useTestApp();
let member: Awaited<ReturnType<typeof memberOfNewBrand>>;
beforeAll(async () => {
  member = await memberOfNewBrand(t.deps);
});

const search = (
  payload: object,
  url = `/brands/${member.brand}/listings`,
  headers: Record<string, string> = member.headers,
) => t.app.inject({ method: 'POST', url, headers, payload });

async function names(map: Map<string, string>, payload: object, url?: string) {
  const res = await search(payload, url);
  expect(res.statusCode, res.body).toBe(200);
  return { names: (res.json().data as { id: string }[]).map((r) => map.get(r.id)), info: res.json().info };
}

describe('sort and paging', () => {
  const tag = newTag();
  let map: Map<string, string>;
  beforeAll(async () => {
    map = await insertListings(t.deps, tag, [
      { name: 'a', price: 300, bedroom_count: 3, year_built: 2000, status: 'Sold' },
      { name: 'b', price: 100, bedroom_count: null, year_built: 1990, status: 'Active' },
      { name: 'c', price: 200, bedroom_count: 3, year_built: null, status: 'Pending' },
      { name: 'd', price: 200, bedroom_count: 1, year_built: 1980, status: 'Active' },
    ]);
  });

  it.each([
    ['asc', [{ by: 'year_built' }], ['d', 'b', 'a', 'c']],
    ['desc', [{ by: 'year_built', dir: 'desc' }], ['a', 'b', 'd', 'c']],
    ['bedrooms asc (null last)', [{ by: 'bedrooms', dir: 'asc' }, { by: 'price' }], ['d', 'c', 'a', 'b']],
    [
      'bedrooms desc (null last)',
      [
        { by: 'bedrooms', dir: 'desc' },
        { by: 'price', dir: 'desc' },
      ],
      ['a', 'c', 'd', 'b'],
    ],
    ['status rank', [{ by: 'status' }, { by: 'price' }], ['b', 'd', 'c', 'a']],
  ])('sorts %s, nulls last', async (_name, sort, expected) => {
    expect((await names(map, { agents: [tag], sort })).names).toEqual(expected);
  });

  it('accepts the legacy order_by in the query string', async () => {
    const res = await names(
      map,
      { agents: [tag] },
      `/brands/${member.brand}/listings?order_by[]=-price&order_by[]=year_built`,
    );
    expect(res.names).toEqual(['a', 'd', 'c', 'b']);
  });

  it('pages with an exact total, also past the end', async () => {
    const sort = [{ by: 'price' }];
    const first = await names(map, { agents: [tag], sort, start: 0, limit: 3 });
    const second = await names(map, { agents: [tag], sort, start: 3, limit: 3 });
    // c and d tie on price: the id tiebreaker keeps one order, so the two pages hold every row once.
    expect(first.names[0]).toBe('b');
    expect(second.names).toEqual(['a']);
    expect(new Set([...first.names, ...second.names]).size).toBe(4);
    expect(first.info).toMatchObject({ count: 3, total: 4 });
    expect(second.info).toMatchObject({ count: 1, total: 4 });
    const past = await names(map, { agents: [tag], start: 10 });
    expect(past.info).toMatchObject({ count: 0, total: 4 });
  });

  it.each(['matches', 'subquery', 'window'] as const)(
    'total strategy %s gives the same pages and totals',
    async (strategy) => {
      const where = compileFilters(normalizeCriteria({ agents: [tag] }), { now: t.clock.now() });
      const sort = resolveSort([{ by: 'price', dir: 'desc' }], undefined);
      const page = await runSearch(t.deps.db, { where, sort, start: 1, limit: 2 }, strategy);
      expect(page.total).toBe(4);
      expect(page.ids.map((id) => map.get(id))[0]).toMatch(/^[cd]$/);
      expect(await runSearch(t.deps.db, { where, sort, start: 9, limit: 2 }, strategy)).toEqual({ ids: [], total: 4 });
    },
  );

  it('takes offset as start and decimal-integer strings for start, limit and offset, as existing clients send them', async () => {
    const sort = [{ by: 'price' }];
    const page1 = await names(map, { agents: [tag], sort, limit: '2' });
    const page2 = await names(map, { agents: [tag], sort, limit: '2', offset: '2' });
    expect(page1.info).toMatchObject({ count: 2, total: 4 });
    expect(page2.info).toMatchObject({ count: 2, total: 4 });
    expect(new Set([...page1.names, ...page2.names]).size).toBe(4); // page 2 is not page 1 again
    expect((await names(map, { agents: [tag], sort, offset: 3 })).names).toEqual(['a']);
    expect((await names(map, { agents: [tag], sort }, `/valerts?offset=3`)).names).toEqual(['a']);
    expect((await names(map, { agents: [tag], sort, start: 0, offset: 3 })).names[0]).toBe('b'); // start wins
    for (const bad of [
      { limit: '7.5' },
      { limit: 'seventy' },
      { offset: -1 },
      { offset: '-1' },
      { start: '1e3' },
      { offset: 2 ** 31 },
      { limit: '' },
    ]) {
      const res = await search({ agents: [tag], ...bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('takes start and limit from the query string when the body has none; the body wins', async () => {
    const url = `/brands/${member.brand}/listings?start=1&limit=1`;
    const fromQuery = await names(map, { agents: [tag], sort: [{ by: 'year_built' }] }, url);
    expect(fromQuery.names).toEqual(['b']);
    expect(fromQuery.info).toMatchObject({ count: 1, total: 4 });
    const bodyWins = await names(map, { agents: [tag], sort: [{ by: 'year_built' }], start: 0, limit: 2 }, url);
    expect(bodyWins.names).toEqual(['d', 'b']);
  });

  it('rejects limit above 1000 and unknown sort keys', async () => {
    expect((await search({ agents: [tag], limit: 1001 })).statusCode).toBe(400);
    expect((await search({ agents: [tag], sort: [{ by: 'nope' }] })).statusCode).toBe(400);
  });
});

describe('brands and boundaries', () => {
  it('brands: listings of agents linked to members of the brand (and its sub-brands), in any slot', async () => {
    const tag = newTag();
    const office = await createBrand(t.deps, { parent: member.brand });
    const [memberUser, officeUser, outsider] = [
      member.user,
      (await memberOfNewBrand(t.deps)).user,
      (await memberOfNewBrand(t.deps)).user,
    ];
    await addMembership(t.deps, officeUser, office.id);
    await linkAgent(t.deps, memberUser, `${tag}-m`);
    await linkAgent(t.deps, officeUser, `${tag}-o`);
    await linkAgent(t.deps, outsider, `${tag}-x`);
    const map = await insertListings(t.deps, tag, [
      { name: 'member-list', list_agent_mui: `${tag}-m` },
      { name: 'office-co-selling', list_agent_mui: 'nobody', co_selling_agent3_mui: `${tag}-o` },
      { name: 'outsider', list_agent_mui: `${tag}-x` },
    ]);
    const res = await names(map, { brands: [member.brand] });
    expect(res.names.filter(Boolean).sort()).toEqual(['member-list', 'office-co-selling']);
    // `brand` (one uuid, as the WordPress plugin sends it) is the same criterion, and an anchor by itself
    const single = await names(map, { brand: member.brand, limit: 100 });
    expect(single.names.filter(Boolean).sort()).toEqual(['member-list', 'office-co-selling']);
    expect((await search({ brand: (await createBrand(t.deps)).id })).statusCode).toBe(403);
  });

  it('mls_number: exact MLS numbers, one or many, are an anchor; 1,001 of them are a 400', async () => {
    const tag = newTag();
    const map = await insertListings(t.deps, tag, [{ name: 'one' }, { name: 'two' }, { name: 'three' }]);
    expect((await names(map, { mls_number: `${tag}-two` })).names).toEqual(['two']);
    expect(
      (await names(map, { mls_number: [`${tag}-one`, `${tag}-three`, 'NOPE'], sort: [{ by: 'mls' }] })).names.sort(),
    ).toEqual(['one', 'three']);
    expect((await names(map, { mls_number: [`${tag}-one`], agents: ['someone-else'] })).names).toEqual([]); // combined with AND
    const tooMany = await search({ mls_number: Array.from({ length: 1001 }, (_, i) => `N-${i}`) });
    expect(tooMany.json()).toMatchObject({
      http: 400,
      code: 'Validation',
      attributes: { mls_number: expect.any(Array) },
    });
  });

  it('omit[] drops fields of the listing records, required ones too', async () => {
    const tag = newTag();
    await insertListings(t.deps, tag, [{ name: 'omitted' }]);
    const res = await search(
      { agents: [tag] },
      `/brands/${member.brand}/listings?omit[]=listing.property&omit[]=listing.formatted`,
    );
    expect(res.statusCode).toBe(200);
    const [record] = res.json().data;
    expect(record).not.toHaveProperty('property');
    expect(record).not.toHaveProperty('formatted');
    expect(record).toHaveProperty('mls_number', `${tag}-omitted`);
  });

  it('brands: an unreachable brand is 403', async () => {
    const other = await createBrand(t.deps);
    expect((await search({ brands: [other.id] })).statusCode).toBe(403);
  });

  it('boundaries: inside the outer ring matches, inside the hole does not, unknown boundary is 400', async () => {
    const ring = (x0: number, y0: number, s: number) => [
      [x0, y0],
      [x0 + s, y0],
      [x0 + s, y0 + s],
      [x0, y0 + s],
      [x0, y0],
    ];
    await upsertBoundaries(t.deps.db, [
      prepareBoundary({
        externalId: `test-${newTag()}`,
        boundaryType: 'neighborhood',
        title: 'Donut',
        country: 'US',
        state: null,
        subtitle: '',
        aliases: [],
        codes: [],
        population: null,
        geometry: { type: 'Polygon', coordinates: [ring(10, 10, 10), ring(14, 14, 2)] },
      }),
    ]);
    const boundary = await t.deps.db
      .selectFrom('boundaries')
      .select('id')
      .where('title', '=', 'Donut')
      .executeTakeFirstOrThrow();
    const tag = newTag();
    const map = await insertListings(t.deps, tag, [
      { name: 'ring', at: [11, 11] },
      { name: 'hole', at: [15, 15] },
      { name: 'outside', at: [25, 25] },
      { name: 'edge', at: [10, 15] },
    ]);
    const res = await names(map, { boundaries: [boundary.id], agents: [tag] });
    expect(res.names.sort()).toEqual(['edge', 'ring']);
    expect(res.info.proposed_title).toBe('All Listings in Donut');
    const unknown = await search({ boundaries: ['00000000-0000-4000-8000-000000000000'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().attributes.boundaries).toBeDefined();
  });
});

describe('validation and access', () => {
  const ring = [
    { latitude: 1, longitude: 1 },
    { latitude: 1, longitude: 2 },
    { latitude: 2, longitude: 2 },
    { latitude: 1, longitude: 1 },
  ];
  it.each([
    ['empty ring', { points: [] }],
    ['ring too short', { points: ring.slice(0, 3) }],
    ['open ring', { points: [...ring.slice(0, 3), { latitude: 5, longitude: 5 }] }],
  ])('%s → 400 Validation on points', async (_name, body) => {
    const res = await search(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'Validation', attributes: { points: [expect.any(String)] } });
  });

  it.each([
    ['a count beyond int4', { minimum_bedrooms: 3_000_000_000 }, 'minimum_bedrooms'],
    ['pets beyond int4', { number_of_pets_allowed: 3_000_000_000 }, 'number_of_pets_allowed'],
    ['parking beyond int4', { minimum_parking_spaces: 3_000_000_000 }, 'minimum_parking_spaces'],
    ['a date past year 9999', { minimum_sold_date: 1e20 }, 'minimum_sold_date'],
    ['a date before year 1', { maximum_list_date: -1e20 }, 'maximum_list_date'],
  ])('%s → 400 Validation naming the field, not a database error', async (_name, body, field) => {
    const res = await search({ agents: ['x'], ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'Validation', attributes: { [field]: [expect.any(String)] } });
  });

  it.each([
    ['search text', { agents: ['x'], search: 'a\u0000b' }, 'search'],
    ['an agent id', { agents: ['x\u0000'] }, 'agents.0'],
  ])('a NUL character in %s → 400 naming the field', async (_name, body, field) => {
    const res = await search(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'Validation',
      message: expect.stringContaining('NUL'),
      attributes: { [field]: [expect.stringContaining('NUL')] },
    });
  });

  it('min > max → 400 with the field in attributes', async () => {
    const res = await search({ agents: ['x'], minimum_price: 10, maximum_price: 5 });
    expect(res.json()).toMatchObject({
      http: 400,
      code: 'Validation',
      attributes: { minimum_price: ['must be at most maximum_price'] },
    });
  });

  it.each([
    ['nothing', {}],
    ['only non-anchor criteria', { minimum_price: 1, points: null }],
    ['empty anchor arrays', { agents: [], brands: [], boundaries: [] }],
  ])('an unanchored search (%s) is 400', async (_name, body) => {
    const res = await search(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Request too broad. Either define mls, brand, or geographic boundaries');
  });

  it('a brand the actor does not belong to is 403', async () => {
    const other = await createBrand(t.deps);
    expect((await search({ agents: ['x'] }, `/brands/${other.id}/listings`)).statusCode).toBe(403);
  });

  it('answers proposed_title', async () => {
    const res = await search({
      agents: ['x'],
      minimum_bedrooms: 3,
      minimum_price: 300_000,
      maximum_price: 500_000,
      property_subtypes: ['RES-Single Family'],
      postal_codes: ['75219'],
    });
    expect(res.json().info.proposed_title).toBe('3+ Beds, $300K–$500K, Single Family in 75219');
  });
});

describe('deprecated endpoints', () => {
  const tag = newTag();
  let map: Map<string, string>;
  beforeAll(async () => {
    map = await insertListings(t.deps, tag, [
      { name: 'one', content: 'lake view' },
      { name: 'two', status: 'Sold', content: 'lake house' },
    ]);
  });
  const successor = '</brands/:brand/listings>; rel="successor-version"';

  it('POST /valerts searches in the brand context and says it is deprecated', async () => {
    const res = await search({ agents: [tag] }, '/valerts', { ...member.headers, 'x-rechat-brand': member.brand });
    expect(res.statusCode).toBe(200);
    expect(res.json().info.total).toBe(2);
    expect(res.headers.deprecation).toBe(`@${Date.UTC(2028, 0, 1) / 1000}`);
    expect(res.headers.link).toBe(successor);
  });

  it('POST /valerts with an unreachable X-RECHAT-BRAND is 403', async () => {
    const other = await createBrand(t.deps);
    expect(
      (await search({ agents: [tag] }, '/valerts', { ...member.headers, 'x-rechat-brand': other.id })).statusCode,
    ).toBe(403);
  });

  it('POST /valerts/count answers the total only', async () => {
    const res = await search({ agents: [tag], listing_statuses: ['Sold'] }, '/valerts/count', {
      ...member.headers,
      'x-rechat-brand': member.brand,
    });
    expect(res.json()).toMatchObject({
      code: 'OK',
      data: { total: 1 },
      info: { count: 1, total: 1, proposed_title: 'Sold' },
    });
    expect(res.headers.deprecation).toBe(`@${Date.UTC(2028, 0, 1) / 1000}`);
  });

  it('GET /listings/search takes q, mls_number and status[]', async () => {
    const get = (query: string) =>
      t.app.inject({ method: 'GET', url: `/listings/search?${query}`, headers: member.headers });
    const byText = await get(`q=lake&status[]=Sold&limit=10`);
    expect(byText.statusCode, byText.body).toBe(200);
    expect(byText.headers.deprecation).toBe(`@${Date.UTC(2026, 0, 1) / 1000}`);
    expect(byText.headers.link).toBe(successor);
    expect((byText.json().data as { id: string }[]).map((r) => map.get(r.id))).toEqual(['two']);
    const byNumber = await get(`mls_number=${tag}-one`);
    expect((byNumber.json().data as { id: string }[]).map((r) => map.get(r.id))).toEqual(['one']);
    expect((await get('status[]=Active')).statusCode).toBe(400);
  });
});

describe('OpenAPI', () => {
  it('documents the endpoints and marks the deprecated ones', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(spec.paths['/brands/{brand}/listings'].post).toBeDefined();
    expect(spec.paths['/valerts'].post.deprecated).toBe(true);
    expect(spec.paths['/listings/search'].get.deprecated).toBe(true);
  });
});

describe('anonymous brand search (POST /valerts and /valerts/count without a token)', () => {
  const tag = newTag();
  let brand: string;
  let map: Map<string, string>;
  beforeAll(async () => {
    const site = await memberOfNewBrand(t.deps);
    brand = site.brand;
    await linkAgent(t.deps, site.user, tag);
    const other = await memberOfNewBrand(t.deps);
    await linkAgent(t.deps, other.user, `${tag}-other`);
    map = await insertListings(t.deps, tag, [
      { name: 'public-1', price: 500_000, property_type: 'Residential' },
      { name: 'public-2', price: 400_000, property_type: 'Residential' },
      { name: 'public-3', price: 300_000, property_type: 'Residential', status: 'Sold' },
      { name: 'withdrawn', status: 'Withdrawn', property_type: 'Residential' },
      { name: 'exclusive', office_exclusive: true, property_type: 'Residential' },
      { name: 'other-brand', list_agent_mui: `${tag}-other`, property_type: 'Residential' },
    ]);
  });

  const anonymous = (payload: object, headers: Record<string, string> = {}, url = '/valerts') =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const namesOf = (res: Awaited<ReturnType<typeof anonymous>>) =>
    (res.json().data as { id: string }[]).map((r) => map.get(r.id));

  it("shows the named brand's publicly displayable listings only, under the per-IP limit", async () => {
    const res = await anonymous({ property_types: ['Residential'], limit: 10 }, { 'x-rechat-brand': brand });
    expect(res.statusCode, res.body).toBe(200);
    expect(namesOf(res).sort()).toEqual(['public-1', 'public-2', 'public-3']);
    expect(res.headers['ratelimit-limit']).toBeDefined();
    expect(res.headers.deprecation).toBeDefined();
  });

  it('takes the brand from the body as the plugin sends it, with offset paging (page 2 is not page 1)', async () => {
    const body = {
      brand,
      property_types: ['Residential'],
      minimum_price: 100_000,
      limit: 2,
      sort: [{ by: 'price', dir: 'desc' }],
    };
    const page1 = await anonymous({ ...body, offset: 0 });
    const page2 = await anonymous({ ...body, offset: 2 });
    expect(namesOf(page1)).toEqual(['public-1', 'public-2']);
    expect(namesOf(page2)).toEqual(['public-3']);
    expect(page1.json().info.total).toBe(3);
  });

  it('counts with the brand header and no token', async () => {
    const res = await anonymous({}, { 'x-rechat-brand': brand }, '/valerts/count');
    expect(res.json()).toMatchObject({ code: 'OK', data: { total: 3 } });
  });

  it("needs a brand without a token (401), a brand that exists (404), and never shows another brand's listings", async () => {
    expect((await anonymous({ agents: [tag] })).statusCode).toBe(401);
    expect((await anonymous({ brand: '7d3b7a52-54f2-4a6a-9a0e-2a1c9f0d1a11' })).statusCode).toBe(404);
    expect((await anonymous({}, { 'x-rechat-brand': 'nope' })).statusCode).toBe(400);
    const mixed = await anonymous({ agents: [`${tag}-other`], limit: 50 }, { 'x-rechat-brand': brand });
    expect(namesOf(mixed)).toEqual([]); // the brand criterion AND the agents criterion: nothing of the other brand
    const authenticated = await search({ agents: [tag], limit: 50 }, '/valerts');
    expect(authenticated.headers['ratelimit-limit']).toBeUndefined(); // with a token: as before, no public limit
  });
});
