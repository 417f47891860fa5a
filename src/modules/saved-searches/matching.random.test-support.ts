// Test support: random listings and random saved-search criteria over small shared domains (so searches do find
// listings), every criterion of spec §2.5 drawn. Coordinates sit on a 0.05° grid and polygons use the same grid,
// so listings land on polygon edges and vertices too. Seeded: a failure replays with its seed.
import type { SeededRandom } from '../listings/listings.random.js';
import type { ListingFixture } from '../listings/search/listing-fixture.test-support.js';
import { TRI_STATE_FLAGS } from '../listings/search/search.schemas.js';

export const AGENTS = ['AG1', 'AG2', 'AG3', 'AG4', 'AG5', 'AG6'];
export const OFFICES = ['OF1', 'OF2', 'OF3', 'OF4'];
const STATUSES = ['Active', 'Active', 'Active', 'Sold', 'Pending', 'Coming Soon', 'Withdrawn'];
const TYPES = ['Residential', 'Commercial', 'Land'];
const SUBTYPES = ['RES-Single Family', 'RES-Condo', 'COM-Office'];
const POSTAL = ['75201', '75202', '75203'];
const WORDS = ['pool', 'garden', 'modern', 'lake', 'view', 'renovated'];
const STREETS = ['Main', 'Oak', 'Elm', 'Lake'];
const GRID = 0.05;
const WEST = -97.0;
const SOUTH = 32.6;
const CELLS = 8;

/** Epoch seconds around the test clock's now (2026-11-21T12:00:00Z). */
export const NOW = new Date('2026-11-21T12:00:00Z');
const nowSeconds = NOW.getTime() / 1000;
const DAY = 86_400;

const round = (value: number) => Math.round(value * 1e6) / 1e6;
const coordinate = (random: SeededRandom, origin: number) => round(origin + GRID * random.integer(0, CELLS));
const orNull = <T>(random: SeededRandom, value: () => T): T | null => (random.chance(0.2) ? null : value());
const some = <T>(random: SeededRandom, items: readonly T[]) => {
  const picked = items.filter(() => random.chance(0.4));
  return picked.length > 0 ? picked : [random.pick(items)];
};
const range = (random: SeededRandom, low: number, high: number, step = 1): [number, number] => {
  const a = low + step * random.integer(0, Math.floor((high - low) / step));
  const b = low + step * random.integer(0, Math.floor((high - low) / step));
  return a <= b ? [a, b] : [b, a];
};

export function randomListing(random: SeededRandom, name: string): ListingFixture {
  const slot = () => (random.chance(0.5) ? random.pick(AGENTS) : null);
  const office = () => (random.chance(0.5) ? random.pick(OFFICES) : null);
  const full = random.integer(0, 3);
  const half = random.integer(0, 2);
  const status = random.pick(STATUSES);
  const flags = Object.fromEntries(TRI_STATE_FLAGS.map((flag) => [flag, random.pick([true, false, null])]));
  return {
    name,
    at: [coordinate(random, WEST), coordinate(random, SOUTH)],
    content: `${random.pick(WORDS)} ${random.pick(WORDS)} home`,
    address: `${random.integer(1, 99)} ${random.pick(STREETS)} Street Dallas TX`,
    status,
    price: orNull(random, () => 100_000 * random.integer(1, 9)),
    currency: random.chance(0.85) ? 'USD' : 'CAD',
    square_meters: orNull(random, () => 50 * random.integer(1, 8)),
    lot_square_meters: orNull(random, () => 250 * random.integer(1, 8)),
    bedroom_count: orNull(random, () => random.integer(0, 6)),
    full_bathroom_count: full,
    half_bathroom_count: half,
    bathroom_count: full + 0.5 * half,
    year_built: orNull(random, () => 1950 + 5 * random.integer(0, 15)),
    parking_spaces_covered_total: random.integer(0, 2),
    parking_spaces_uncovered_total: random.integer(0, 2),
    property_type: orNull(random, () => random.pick(TYPES)),
    property_subtype: orNull(random, () => random.pick(SUBTYPES)),
    postal_code: orNull(random, () => random.pick(POSTAL)),
    list_agent_mui: slot(),
    co_list_agent_mui: slot(),
    co_list_agent2_mui: slot(),
    selling_agent_mui: slot(),
    co_selling_agent3_mui: slot(),
    list_office_mls_id: office(),
    co_list_office_mls_id: office(),
    selling_office_mls_id: office(),
    co_selling_office_mls_id: office(),
    ...flags,
    office_exclusive: random.pick([true, false, null]),
    number_of_pets_allowed: orNull(random, () => random.integer(0, 3)),
    open_house_until: random.pick([null, new Date((nowSeconds - DAY) * 1000), new Date((nowSeconds + DAY) * 1000)]),
    close_date: status === 'Sold' ? new Date((nowSeconds - DAY * random.integer(0, 60)) * 1000) : null,
    list_date: orNull(random, () => new Date((nowSeconds - DAY * random.integer(0, 90)) * 1000)),
  };
}

export interface Fixtures {
  brands: string[];
  boundaries: string[];
}

/** Random criteria with at least one anchor; each other criterion with some probability. */
export function randomCriteria(random: SeededRandom, fixtures: Fixtures): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  const anchors: (() => void)[] = [
    () => (c.points = randomRing(random)),
    () => (c.boundaries = some(random, fixtures.boundaries)),
    () => (c.brands = some(random, fixtures.brands)),
    () => (c.agents = some(random, AGENTS)),
    () => (c.list_agents = some(random, AGENTS)),
    () => (c.selling_agents = some(random, AGENTS)),
    () => (c.list_offices = some(random, OFFICES)),
    () => (c.selling_offices = some(random, OFFICES)),
    () => (c.offices = some(random, OFFICES)),
  ];
  random.pick(anchors)();
  for (const anchor of anchors) if (random.chance(0.1)) anchor();
  const p = 0.15;
  const pair = (min: string, max: string, low: number, high: number, step = 1) => {
    if (!random.chance(p * 2)) return;
    const [a, b] = range(random, low, high, step);
    if (random.chance(0.7)) c[min] = a;
    if (random.chance(0.7)) c[max] = b;
  };
  pair('minimum_price', 'maximum_price', 100_000, 900_000, 50_000);
  if (random.chance(p)) c.currency = random.pick(['USD', 'cad']);
  pair('minimum_square_meters', 'maximum_square_meters', 50, 400, 25);
  pair('minimum_lot_square_meters', 'maximum_lot_square_meters', 250, 2000, 125);
  pair('minimum_bedrooms', 'maximum_bedrooms', 0, 6);
  if (random.chance(p)) c.minimum_bathrooms = 0.5 * random.integer(0, 8);
  if (random.chance(p)) c.maximum_bathrooms = random.integer(1, 4);
  pair('minimum_year_built', 'maximum_year_built', 1950, 2025, 5);
  if (random.chance(p)) c.minimum_parking_spaces = random.integer(0, 4);
  if (random.chance(p)) c.property_types = some(random, TYPES);
  if (random.chance(p)) c.property_subtypes = some(random, SUBTYPES);
  if (random.chance(p * 2)) c.listing_statuses = some(random, ['Active', 'Sold', 'Pending', 'Coming Soon']);
  if (random.chance(p)) c.postal_codes = some(random, POSTAL);
  for (const flag of TRI_STATE_FLAGS) if (random.chance(p)) c[flag] = random.pick([true, false, null]);
  if (random.chance(p)) c.office_exclusive = random.pick([true, false]);
  if (random.chance(p)) c.number_of_pets_allowed = random.integer(0, 3);
  if (random.chance(p)) c.open_house = random.pick([true, false]);
  if (random.chance(p)) c.minimum_sold_date = nowSeconds - DAY * random.integer(0, 60);
  if (random.chance(p)) c.minimum_list_date = nowSeconds - DAY * random.integer(30, 90);
  if (random.chance(p)) c.maximum_list_date = nowSeconds - DAY * random.integer(0, 29);
  if (random.chance(p))
    c.search = random.pick([
      random.pick(WORDS),
      `${random.pick(WORDS)} -${random.pick(WORDS)}`,
      `${random.pick(WORDS)} or ${random.pick(WORDS)}`,
      '"modern home"',
    ]);
  if (random.chance(p)) c.content = random.pick(WORDS);
  if (random.chance(p)) c.address = random.pick(STREETS);
  return c;
}

/** A closed ring on the grid: a rectangle or a triangle (vertices on the grid, so listings sit on its edges). */
function randomRing(random: SeededRandom): { latitude: number; longitude: number }[] {
  const [x0, x1] = range(random, 0, CELLS);
  const [y0, y1] = range(random, 0, CELLS);
  const lon = (i: number) => round(WEST + GRID * i);
  const lat = (i: number) => round(SOUTH + GRID * i);
  const corners = random.chance(0.6)
    ? [
        [x0, y0],
        [x1 + 1, y0],
        [x1 + 1, y1 + 1],
        [x0, y1 + 1],
      ]
    : [
        [x0, y0],
        [x1 + 1, y0],
        [x0, y1 + 1],
      ];
  const ring = corners.map(([x, y]) => ({ longitude: lon(x!), latitude: lat(y!) }));
  return [...ring, ring[0]!];
}
