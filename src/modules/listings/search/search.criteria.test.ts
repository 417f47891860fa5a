// One case per criterion and per edge, run through POST /brands/:brand/listings on a real database. Every case
// gets its own agent tag (its anchor), so the cases share one database without seeing each other's rows.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../test/helpers/app.js';
import {
  insertListings,
  memberOfNewBrand,
  newTag,
  type ListingFixture,
} from '../../../../test/helpers/search-fixtures.js';
import { TRI_STATE_FLAGS, type SearchCriteria } from './search.schemas.js';

const t = useTestApp();
let member: Awaited<ReturnType<typeof memberOfNewBrand>>;
beforeAll(async () => {
  member = await memberOfNewBrand(t.deps);
});

interface Case {
  criteria: SearchCriteria;
  listings: ListingFixture[];
  expected: string[];
  /** The criteria carry their own anchor (default: agents = [tag]). */
  ownAnchor?: boolean;
}

async function run({ criteria, listings, expected, ownAnchor }: Case, tag = newTag()) {
  const names = await insertListings(t.deps, tag, listings);
  const body = ownAnchor ? criteria : { agents: [tag], ...criteria };
  const res = await t.app.inject({
    method: 'POST',
    url: `/brands/${member.brand}/listings`,
    headers: member.headers,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  const found = (res.json().data as { id: string }[]).map((row) => names.get(row.id) ?? `foreign:${row.id}`);
  expect(found.sort()).toEqual([...expected].sort());
  expect(res.json().info.total).toBe(expected.length);
}

const day = 86_400;
const square = (x0: number, y0: number, size: number) => [
  { longitude: x0, latitude: y0 },
  { longitude: x0 + size, latitude: y0 },
  { longitude: x0 + size, latitude: y0 + size },
  { longitude: x0, latitude: y0 + size },
  { longitude: x0, latitude: y0 },
];

describe('range criteria', () => {
  const cases: [string, Case][] = [
    [
      'price range is inclusive and in the search currency',
      {
        criteria: { minimum_price: 200_000, maximum_price: 300_000 },
        listings: [
          { name: 'a', price: 100_000 },
          { name: 'b', price: 200_000 },
          { name: 'c', price: 300_000 },
          { name: 'd', price: 400_000 },
          { name: 'eur', price: 250_000, currency: 'EUR' },
        ],
        expected: ['b', 'c'],
      },
    ],
    [
      'currency EUR',
      {
        criteria: { minimum_price: 1, currency: 'eur' },
        listings: [{ name: 'usd' }, { name: 'eur', currency: 'EUR' }],
        expected: ['eur'],
      },
    ],
    [
      'currency alone does not filter',
      { criteria: { currency: 'EUR' }, listings: [{ name: 'usd' }], expected: ['usd'] },
    ],
    [
      'square meters',
      {
        criteria: { minimum_square_meters: 60, maximum_square_meters: 150 },
        listings: [{ name: 'a', square_meters: 50 }, { name: 'b', square_meters: 100 }, { name: 'n' }],
        expected: ['b'],
      },
    ],
    [
      'lot square meters',
      {
        criteria: { minimum_lot_square_meters: 500 },
        listings: [
          { name: 'a', lot_square_meters: 400 },
          { name: 'b', lot_square_meters: 800 },
        ],
        expected: ['b'],
      },
    ],
    [
      'bedrooms',
      {
        criteria: { minimum_bedrooms: 2, maximum_bedrooms: 3 },
        listings: [
          { name: 'b1', bedroom_count: 1 },
          { name: 'b2', bedroom_count: 2 },
          { name: 'b3', bedroom_count: 3 },
          { name: 'b4', bedroom_count: 4 },
          { name: 'n' },
        ],
        expected: ['b2', 'b3'],
      },
    ],
    [
      'fractional minimum bathrooms, integer maximum',
      {
        criteria: { minimum_bathrooms: 1.5, maximum_bathrooms: 2 },
        listings: [
          { name: 'x1', bathroom_count: 1 },
          { name: 'x15', bathroom_count: 1.5 },
          { name: 'x2', bathroom_count: 2 },
          { name: 'x25', bathroom_count: 2.5 },
        ],
        expected: ['x15', 'x2'],
      },
    ],
    [
      'year built',
      {
        criteria: { minimum_year_built: 1990, maximum_year_built: 2000 },
        listings: [
          { name: 'old', year_built: 1950 },
          { name: 'mid', year_built: 1995 },
          { name: 'new', year_built: 2020 },
        ],
        expected: ['mid'],
      },
    ],
    [
      'parking: covered + uncovered',
      {
        criteria: { minimum_parking_spaces: 3 },
        listings: [
          { name: 'p2', parking_spaces_covered_total: 1, parking_spaces_uncovered_total: 1 },
          { name: 'p3', parking_spaces_covered_total: 2, parking_spaces_uncovered_total: 1 },
          { name: 'n' },
        ],
        expected: ['p3'],
      },
    ],
    [
      'number_of_pets_allowed is a minimum',
      {
        criteria: { number_of_pets_allowed: 2 },
        listings: [
          { name: 'one', number_of_pets_allowed: 1 },
          { name: 'two', number_of_pets_allowed: 2 },
          { name: 'n' },
        ],
        expected: ['two'],
      },
    ],
    [
      'list date range',
      {
        criteria: { minimum_list_date: 1_700_000_000, maximum_list_date: 1_700_000_000 + 10 * day },
        listings: [
          { name: 'before', list_date: new Date((1_700_000_000 - day) * 1000) },
          { name: 'in', list_date: new Date((1_700_000_000 + day) * 1000) },
          { name: 'n' },
        ],
        expected: ['in'],
      },
    ],
  ];
  it.each(cases)('%s', async (_name, c) => run(c));
});

describe('set criteria', () => {
  const cases: [string, Case][] = [
    [
      'property_types',
      {
        criteria: { property_types: ['Residential'] },
        listings: [
          { name: 'r', property_type: 'Residential' },
          { name: 'c', property_type: 'Commercial' },
        ],
        expected: ['r'],
      },
    ],
    [
      'property_subtypes',
      {
        criteria: { property_subtypes: ['RES-Single Family', 'RES-Condo'] },
        listings: [
          { name: 's', property_subtype: 'RES-Single Family' },
          { name: 'c', property_subtype: 'RES-Condo' },
          { name: 't', property_subtype: 'RES-Townhouse' },
        ],
        expected: ['s', 'c'],
      },
    ],
    [
      'listing_statuses',
      {
        criteria: { listing_statuses: ['Pending'] },
        listings: [{ name: 'a' }, { name: 'p', status: 'Pending' }],
        expected: ['p'],
      },
    ],
    [
      'postal_codes',
      {
        criteria: { postal_codes: ['75219'] },
        listings: [
          { name: 'in', postal_code: '75219' },
          { name: 'out', postal_code: '75220' },
        ],
        expected: ['in'],
      },
    ],
    [
      'null is no filter (not coerced to 0 / false)',
      {
        criteria: { minimum_price: null, minimum_bedrooms: null, pool: null, office_exclusive: null, search: null },
        listings: [{ name: 'bare', price: null }],
        expected: ['bare'],
      },
    ],
    [
      'soft-deleted listings are invisible',
      { criteria: {}, listings: [{ name: 'live' }, { name: 'gone', deleted_at: new Date() }], expected: ['live'] },
    ],
    [
      'empty arrays are no filter',
      {
        criteria: { postal_codes: [], listing_statuses: [], property_types: [] },
        listings: [{ name: 'a' }, { name: 'p', status: 'Pending' }],
        expected: ['a', 'p'],
      },
    ],
  ];
  it.each(cases)('%s', async (_name, c) => run(c));
});

describe('agents and offices', () => {
  const agentSlots = [
    'list_agent_mui',
    'co_list_agent_mui',
    'co_list_agent2_mui',
    'co_list_agent3_mui',
    'selling_agent_mui',
    'co_selling_agent_mui',
    'co_selling_agent2_mui',
    'co_selling_agent3_mui',
  ];
  const officeSlots = [
    'list_office_mls_id',
    'co_list_office_mls_id',
    'selling_office_mls_id',
    'co_selling_office_mls_id',
  ];

  it('agents matches each of the 8 agent slots', async () => {
    const tag = newTag();
    const listings = agentSlots.map((slot) => ({ name: slot, list_agent_mui: `${tag}-other`, [slot]: `${tag}-A` }));
    await run(
      {
        criteria: { agents: [`${tag}-A`] },
        listings: [...listings, { name: 'none', list_agent_mui: `${tag}-other` }],
        expected: agentSlots,
        ownAnchor: true,
      },
      tag,
    );
  });

  it('offices matches each of the 4 office slots', async () => {
    const listings = officeSlots.map((slot) => ({ name: slot, [slot]: 'O1' }));
    await run({
      criteria: { offices: ['O1'] },
      listings: [...listings, { name: 'none', list_office_mls_id: 'O2' }],
      expected: officeSlots,
    });
  });

  it.each([
    ['list_agents', 'list_agent_mui', 'co_list_agent_mui'],
    ['selling_agents', 'selling_agent_mui', 'co_selling_agent_mui'],
    ['list_offices', 'list_office_mls_id', 'co_list_office_mls_id'],
    ['selling_offices', 'selling_office_mls_id', 'co_selling_office_mls_id'],
  ])('%s matches %s only', async (criterion, slot, otherSlot) => {
    const tag = newTag();
    const value = `${tag}-X`;
    const anchor = criterion.includes('agent') ? { [criterion]: [value] } : { agents: [tag], [criterion]: [value] };
    await run(
      {
        criteria: anchor,
        listings: [
          { name: 'hit', [slot]: value },
          { name: 'miss', [otherSlot]: value },
        ],
        expected: ['hit'],
        ownAnchor: true,
      },
      tag,
    );
  });
});

describe('geometry', () => {
  it('points: inside matches, outside does not, an edge counts as inside', async () => {
    const listings = [
      { name: 'inside', at: [-96.5, 32.5] as [number, number] },
      { name: 'outside', at: [-95.5, 32.5] as [number, number] },
      { name: 'edge', at: [-96, 32.5] as [number, number] },
      { name: 'corner', at: [-97, 32] as [number, number] },
    ];
    await run({ criteria: { points: square(-97, 32, 1) }, listings, expected: ['inside', 'edge', 'corner'] });
  });
});

describe('flags', () => {
  const triState = TRI_STATE_FLAGS.flatMap(
    (flag) =>
      [
        [`${flag}: true → true only`, { criteria: { [flag]: true }, expected: ['yes'] }],
        [`${flag}: false → false or null`, { criteria: { [flag]: false }, expected: ['no', 'unknown'] }],
        [`${flag}: null → no filter`, { criteria: { [flag]: null }, expected: ['yes', 'no', 'unknown'] }],
      ] as const,
  );
  it.each(triState)('%s', async (_name, c) => {
    const flag = Object.keys(c.criteria)[0]!;
    await run({
      criteria: c.criteria,
      listings: [{ name: 'yes', [flag]: true }, { name: 'no', [flag]: false }, { name: 'unknown' }],
      expected: [...c.expected],
    });
  });

  it.each([
    [true, ['yes']],
    [false, ['no']],
  ])('office_exclusive %s is strict (null never matches)', async (value, expected) => {
    await run({
      criteria: { office_exclusive: value },
      listings: [
        { name: 'yes', office_exclusive: true },
        { name: 'no', office_exclusive: false },
        { name: 'unknown', office_exclusive: null },
      ],
      expected,
    });
  });
});

describe('time criteria', () => {
  it('open_house: only active open houses; expired ones stop matching when the clock moves', async () => {
    const tag = newTag();
    const now = t.clock.now().getTime();
    await insertListings(t.deps, tag, [
      { name: 'active', open_house_until: new Date(now + 3_600_000) },
      { name: 'expired', open_house_until: new Date(now - 60_000) },
      { name: 'none' },
    ]);
    const search = async (criteria: SearchCriteria) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/brands/${member.brand}/listings`,
        headers: member.headers,
        payload: { agents: [tag], ...criteria },
      });
      return res.json().info.total as number;
    };
    expect(await search({ open_house: true })).toBe(1);
    expect(await search({ open_house: false })).toBe(3);
    expect(await search({ open_house: null })).toBe(3);
    t.clock.advance(7200);
    expect(await search({ open_house: true })).toBe(0);
  });

  it('minimum_sold_date constrains Sold listings only', async () => {
    const since = 1_700_000_000;
    await run({
      criteria: { minimum_sold_date: since },
      listings: [
        { name: 'sold-recent', status: 'Sold', close_date: new Date((since + day) * 1000) },
        { name: 'sold-old', status: 'Sold', close_date: new Date((since - day) * 1000) },
        { name: 'sold-undated', status: 'Sold' },
        { name: 'active', status: 'Active' },
        { name: 'pending-old', status: 'Pending', close_date: new Date((since - day) * 1000) },
      ],
      expected: ['sold-recent', 'active', 'pending-old'],
    });
  });
});

describe('text criteria', () => {
  const listings: ListingFixture[] = [
    { name: 'pool', content: 'Sparkling swimming pool and a large yard', address: '12 Elm Street, Dallas' },
    { name: 'garage', content: 'Three car garage, no pool', address: '40 Oak Avenue, Plano' },
    { name: 'plain', content: 'Cozy cottage', address: '7 Elm Court, Austin' },
  ];
  it.each<[string, SearchCriteria, string[]]>([
    ['search: web syntax with exclusion', { search: 'pool -garage' }, ['pool']],
    ['search: quoted phrase', { search: '"swimming pool"' }, ['pool']],
    ['search: or', { search: 'cottage or garage' }, ['garage', 'plain']],
    ['content: plain words, stemmed', { content: 'pools' }, ['pool', 'garage']],
    ['address: plain words', { address: 'elm' }, ['pool', 'plain']],
    ['address: all words required', { address: 'elm dallas' }, ['pool']],
  ])('%s', async (_name, criteria, expected) => run({ criteria, listings, expected }));
});
