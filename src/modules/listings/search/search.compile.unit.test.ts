// The pure half of search: validation, the compiled SQL (read, not run) and proposed_title. No database.
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../../db/types.js';
import { AppError } from '../../../errors.js';
import { compileFilters } from './filters.query.js';
import { matchesStatement } from './search.repository.js';
import { proposedTitle, compact } from './search.title.js';
import { ANCHOR_MESSAGE, normalizeCriteria, requireAnchor, resolveSort, type Criteria } from './search.validation.js';
import type { SearchCriteria } from './search.schemas.js';

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const NOW = new Date('2026-11-21T12:00:00Z');
const square = [
  { latitude: 32, longitude: -97 },
  { latitude: 32, longitude: -96 },
  { latitude: 33, longitude: -96 },
  { latitude: 33, longitude: -97 },
  { latitude: 32, longitude: -97 },
];

function compiled(criteria: SearchCriteria, sort = resolveSort(undefined, undefined)) {
  const where = compileFilters(normalizeCriteria(criteria), { now: NOW, brandAgentMuis: ['M1'] });
  return matchesStatement({ where, sort, start: 0, limit: 50 }).compile(db);
}

function validationError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('criteria validation', () => {
  it.each([
    ['empty ring', []],
    ['three positions', square.slice(0, 3)],
    ['open ring', square.slice(0, 4)],
  ])('rejects points: %s', (_name, points) => {
    const error = validationError(() => normalizeCriteria({ points }));
    expect(error.code).toBe('Validation');
    expect(error.attributes?.points?.[0]).toMatch(/ring/);
  });

  it('treats points: null, blank text and empty arrays as no filter', () => {
    expect(normalizeCriteria({ points: null, search: '  ', postal_codes: [], pool: null })).toEqual({});
  });

  it.each([
    ['minimum_price', 'maximum_price', 500, 300],
    ['minimum_bedrooms', 'maximum_bedrooms', 4, 2],
    ['minimum_bathrooms', 'maximum_bathrooms', 2.5, 2],
    ['minimum_year_built', 'maximum_year_built', 2000, 1990],
    ['minimum_square_meters', 'maximum_square_meters', 200, 100],
    ['minimum_lot_square_meters', 'maximum_lot_square_meters', 200, 100],
    ['minimum_list_date', 'maximum_list_date', 2000, 1000],
  ])('rejects %s > %s with attributes', (min, max, low, high) => {
    const error = validationError(() => normalizeCriteria({ [min]: low, [max]: high }));
    expect(error.attributes).toEqual({ [min]: [`must be at most ${max}`] });
  });

  it('accepts min = max', () => {
    expect(normalizeCriteria({ minimum_price: 5, maximum_price: 5 })).toEqual({ minimum_price: 5, maximum_price: 5 });
  });

  it('requires an anchor, and an empty array is not one', () => {
    expect(() => requireAnchor(normalizeCriteria({ agents: [], minimum_price: 1 }))).toThrow(ANCHOR_MESSAGE);
    expect(() => requireAnchor(normalizeCriteria({ offices: ['O1'] }))).not.toThrow();
  });
});

describe('sort', () => {
  it('reads legacy order_by words', () => {
    expect(resolveSort(undefined, ['-price', '+list_date', 'bedrooms'])).toEqual([
      { by: 'price', dir: 'desc' },
      { by: 'list_date', dir: 'asc' },
      { by: 'bedrooms', dir: 'asc' },
    ]);
    expect(resolveSort([{ by: 'year_built' }], ['-price'])).toEqual([{ by: 'year_built', dir: 'asc' }]);
    expect(() => resolveSort(undefined, ['-nope'])).toThrow(/unknown sort key/);
  });

  it('puts nulls last in both directions and ends with the id', () => {
    const { sql } = compiled(
      { agents: ['A'] },
      resolveSort([{ by: 'square_feet', dir: 'desc' }, { by: 'bathrooms' }], undefined),
    );
    expect(sql).toContain('select "l"."id", "l"."square_meters" as "k0", "l"."bathroom_count" as "k1" from listings');
    expect(sql).toContain('order by "k0" desc nulls last, "k1" asc nulls last, "id" asc');
  });

  it('orders an unsorted search by id only (stable pages)', () => {
    expect(compiled({ agents: ['A'] }).sql).toContain('order by "id" asc limit');
  });
});

describe('compiled SQL', () => {
  it('keeps every user value out of the SQL text', () => {
    const hostile = "x'); drop table listings; --";
    const { sql, parameters } = compiled({
      search: hostile,
      postal_codes: [hostile],
      agents: [hostile],
      address: hostile,
      content: hostile,
    });
    expect(sql).not.toContain('drop table');
    expect(parameters).toContain(hostile);
  });

  it.each<[string, SearchCriteria, string]>([
    [
      'price range with currency',
      { minimum_price: 1, maximum_price: 2 },
      '"l"."price" >= $1 and "l"."price" <= $2 and "l"."currency" = $3',
    ],
    ['polygon', { points: square }, '"l"."location" <@ $1::polygon'],
    ['any agent slot', { agents: ['A'] }, '"l"."agent_muis" && $1::text[]'],
    ['any office slot', { offices: ['O'] }, '"l"."office_mls_ids" && $1::text[]'],
    ['list agent', { list_agents: ['A'] }, '"l"."list_agent_mui" = any($1::text[])'],
    ['pool true', { pool: true }, '"l"."pool" is true'],
    ['pool false admits null', { pool: false }, '"l"."pool" is not true'],
    ['office_exclusive strict', { office_exclusive: false }, '"l"."office_exclusive" = $1'],
    ['open house', { open_house: true }, '"l"."open_house_until" > $1'],
    ['sold date', { minimum_sold_date: 1 }, `("l"."status" <> 'Sold' or "l"."close_date" >= to_timestamp($1))`],
    ['web search', { search: 'pool' }, `"l"."search_tsv" @@ websearch_to_tsquery('english', $1)`],
    ['content', { content: 'pool' }, `"l"."content_tsv" @@ plainto_tsquery('english', $1)`],
    ['address', { address: 'elm' }, `"l"."address_tsv" @@ plainto_tsquery('english', $1)`],
    ['brands', { brands: ['00000000-0000-4000-8000-000000000001'] }, '"l"."agent_muis" && $1::text[]'],
    ['parking', { minimum_parking_spaces: 2 }, '"l"."parking_spaces_total" >= $1'],
  ])('%s', (_name, criteria, fragment) => {
    expect(compiled(criteria).sql).toContain(fragment);
  });

  it('writes the polygon as (lon,lat) pairs', () => {
    expect(compiled({ points: square }).parameters[0]).toBe('((-97,32),(-96,32),(-96,33),(-97,33),(-97,32))');
  });

  it('does not filter open_house: false or null', () => {
    expect(compiled({ open_house: false, agents: ['A'] }).sql).not.toContain('open_house_until');
  });
});

describe('proposed_title', () => {
  const title = (criteria: Criteria, boundaryTitles?: string[]) =>
    proposedTitle(criteria, boundaryTitles ? { boundaryTitles } : {});

  it('matches the decisions example', () => {
    expect(
      title({
        minimum_bedrooms: 3,
        minimum_price: 300_000,
        maximum_price: 500_000,
        property_subtypes: ['RES-Single Family'],
        postal_codes: ['75219'],
      }),
    ).toBe('3+ Beds, $300K–$500K, Single Family in 75219');
  });

  it.each<[Criteria, string]>([
    [{}, 'All Listings'],
    [{ maximum_price: 1_500_000 }, 'Up to $1.5M'],
    [{ minimum_price: 250_000, currency: 'EUR' }, '€250K+'],
    [{ minimum_bedrooms: 2, maximum_bedrooms: 2, minimum_bathrooms: 1.5 }, '2 Beds, 1.5+ Baths'],
    [{ listing_statuses: ['Sold'], points: [] }, 'Sold in Map Area'],
    [{ property_types: ['Residential'], postal_codes: ['1', '2', '3', '4', '5'] }, 'Residential in 1, 2, 3 +2 more'],
    [{ minimum_year_built: 1990, pool: true, open_house: true }, 'Built 1990+, Pool, Open House'],
  ])('%j → %s', (criteria, expected) => {
    expect(title(criteria)).toBe(expected);
  });

  it('names boundaries by title', () => {
    expect(title({ boundaries: ['b'], minimum_bedrooms: 3 }, ['Dallas'])).toBe('3+ Beds in Dallas');
  });

  it('compacts amounts', () => {
    expect([compact(950), compact(300_000), compact(312_500), compact(1_250_000)]).toEqual([
      '950',
      '300K',
      '312.5K',
      '1.25M',
    ]);
  });
});
