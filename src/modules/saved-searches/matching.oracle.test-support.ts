// Test support: the match decision of spec §2.5 written again, in plain TypeScript over the listing record, as a
// second opinion for matching.property.test.ts. It shares nothing with the production path (no SQL, no
// compileFilters, no stored forms): a mistake made in both places at once would have to be made twice, here from
// the spec's table (docs/listing-search.md spells out what the spec leaves open). It knows only the listing
// fixture as matching.random.ts draws it, the test clock, and the facts the test set up (which agents belong to which
// brand, what each boundary's rings are).
import type { ListingFixture } from '../listings/search/listing-fixture.test-support.js';

type Position = [number, number]; // [longitude, latitude]
type Ring = Position[];

export interface OracleWorld {
  now: Date;
  /** Brand id → the mls_unique_id of every agent of a member of the brand or of one of its sub-brands. */
  brandAgents: ReadonlyMap<string, ReadonlySet<string>>;
  /** Boundary id → its polygons, each an outer ring then its holes. */
  boundaries: ReadonlyMap<string, Ring[][]>;
}

const AGENT_SLOTS = [
  'list_agent_mui',
  'co_list_agent_mui',
  'co_list_agent2_mui',
  'co_list_agent3_mui',
  'selling_agent_mui',
  'co_selling_agent_mui',
  'co_selling_agent2_mui',
  'co_selling_agent3_mui',
];
const OFFICE_SLOTS = [
  'list_office_mls_id',
  'co_list_office_mls_id',
  'selling_office_mls_id',
  'co_selling_office_mls_id',
];
const FLAGS = ['pool', 'pets', 'application_fee', 'appliances', 'furnished', 'fenced_yard'];
/** Geometry tolerance: PostgreSQL's own (1e-6); the fixtures' grid is 0.05°, so any value far below it agrees. */
const EPSILON = 1e-9;

/** Whether a saved search with these criteria (as the client sent them) matches this listing. */
export function oracleMatches(criteria: Record<string, unknown>, listing: ListingFixture, world: OracleWorld): boolean {
  const c = present(criteria);
  const value = (name: string) => (listing[name] ?? null) as unknown;
  const number = (name: string) => value(name) as number | null;
  const text = (name: string) => value(name) as string | null;
  const atLeast = (actual: number | null, bound: unknown) =>
    bound === undefined || (actual !== null && actual >= (bound as number));
  const atMost = (actual: number | null, bound: unknown) =>
    bound === undefined || (actual !== null && actual <= (bound as number));
  const oneOf = (actual: string | null, list: unknown) =>
    list === undefined || (actual !== null && (list as string[]).includes(actual));
  const anyOf = (slots: string[], list: unknown) =>
    list === undefined || slots.some((slot) => oneOf(text(slot), list) && text(slot) !== null);

  // Price bounds are in the search's currency (ISO 4217, default USD, case-insensitive): no conversion.
  if (c.minimum_price !== undefined || c.maximum_price !== undefined) {
    const currency = String(c.currency ?? 'USD').toUpperCase();
    if (text('currency') !== currency) return false;
  }
  const parking =
    number('parking_spaces_covered_total') === null && number('parking_spaces_uncovered_total') === null
      ? null
      : (number('parking_spaces_covered_total') ?? 0) + (number('parking_spaces_uncovered_total') ?? 0);
  const bathrooms = number('bathroom_count');
  const checks: boolean[] = [
    atLeast(number('price'), c.minimum_price),
    atMost(number('price'), c.maximum_price),
    atLeast(number('square_meters'), c.minimum_square_meters),
    atMost(number('square_meters'), c.maximum_square_meters),
    atLeast(number('lot_square_meters'), c.minimum_lot_square_meters),
    atMost(number('lot_square_meters'), c.maximum_lot_square_meters),
    atLeast(number('bedroom_count'), c.minimum_bedrooms),
    atMost(number('bedroom_count'), c.maximum_bedrooms),
    atLeast(bathrooms, c.minimum_bathrooms),
    atMost(bathrooms, c.maximum_bathrooms),
    atLeast(number('year_built'), c.minimum_year_built),
    atMost(number('year_built'), c.maximum_year_built),
    atLeast(parking, c.minimum_parking_spaces),
    atLeast(number('number_of_pets_allowed'), c.number_of_pets_allowed),
    oneOf(text('property_type'), c.property_types),
    oneOf(text('property_subtype'), c.property_subtypes),
    oneOf(text('status'), c.listing_statuses),
    oneOf(text('postal_code'), c.postal_codes),
    oneOf(text('list_agent_mui'), c.list_agents),
    oneOf(text('selling_agent_mui'), c.selling_agents),
    anyOf(AGENT_SLOTS, c.agents),
    oneOf(text('list_office_mls_id'), c.list_offices),
    oneOf(text('selling_office_mls_id'), c.selling_offices),
    anyOf(OFFICE_SLOTS, c.offices),
  ];
  if (checks.includes(false)) return false;

  const at = listing.at!;
  if (c.points !== undefined) {
    const ring = (c.points as { longitude: number; latitude: number }[]).map((p): Position => [
      p.longitude,
      p.latitude,
    ]);
    if (!inRing(at, ring)) return false;
  }
  if (c.boundaries !== undefined) {
    const polygons = (c.boundaries as string[]).flatMap((id) => world.boundaries.get(id) ?? []);
    if (!polygons.some((polygon) => inPolygon(at, polygon))) return false;
  }
  if (c.brands !== undefined) {
    const agents = new Set((c.brands as string[]).flatMap((brand) => [...(world.brandAgents.get(brand) ?? [])]));
    if (!AGENT_SLOTS.some((slot) => text(slot) !== null && agents.has(text(slot)!))) return false;
  }
  for (const flag of FLAGS) {
    // Tri-state: true → the flag is true; false → false or unknown.
    if (c[flag] === true && value(flag) !== true) return false;
    if (c[flag] === false && value(flag) === true) return false;
  }
  if (c.office_exclusive !== undefined && value('office_exclusive') !== c.office_exclusive) return false;
  if (c.open_house === true) {
    const until = value('open_house_until') as Date | null;
    if (until === null || until.getTime() <= world.now.getTime()) return false;
  }
  const seconds = (name: string) => {
    const date = value(name) as Date | null;
    return date === null ? null : date.getTime() / 1000;
  };
  if (
    c.minimum_sold_date !== undefined &&
    text('status') === 'Sold' &&
    !atLeast(seconds('close_date'), c.minimum_sold_date)
  )
    return false;
  if (!atLeast(seconds('list_date'), c.minimum_list_date)) return false;
  if (!atMost(seconds('list_date'), c.maximum_list_date)) return false;

  const address = words(listing.address ?? '');
  const content = words(listing.content ?? '');
  if (c.search !== undefined && !webSearch(String(c.search), [...address, ...content])) return false;
  if (c.content !== undefined && !words(String(c.content)).every((word) => content.includes(word))) return false;
  if (c.address !== undefined && !words(String(c.address)).every((word) => address.includes(word))) return false;
  return true;
}

/** The criteria that filter: null, blank text and empty arrays mean "no filter" (points excepted: never empty here). */
function present(criteria: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(criteria).filter(
      ([, v]) =>
        v !== null &&
        v !== undefined &&
        !(typeof v === 'string' && v.trim() === '') &&
        !(Array.isArray(v) && v.length === 0),
    ),
  );
}

/**
 * Lower-cased words. The fixtures' vocabulary has no two words with one English stem and no stop word, so whole
 * words stand for PostgreSQL's stemmed lexemes.
 */
function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** websearch_to_tsquery's syntax as the fixtures use it: words (AND), `or`, `-word`, and one "quoted phrase". */
function webSearch(query: string, document: string[]): boolean {
  const phrase = /^"([^"]*)"$/.exec(query.trim());
  if (phrase) {
    const wanted = words(phrase[1]!);
    return document.some((_, i) => wanted.every((word, j) => document[i + j] === word));
  }
  const alternatives: string[][] = [[]];
  for (const token of query.trim().split(/\s+/)) {
    if (token.toLowerCase() === 'or') alternatives.push([]);
    else alternatives[alternatives.length - 1]!.push(token);
  }
  return alternatives.some((terms) =>
    terms.every((term) =>
      term.startsWith('-')
        ? !words(term.slice(1)).every((w) => document.includes(w))
        : words(term).every((w) => document.includes(w)),
    ),
  );
}

/** Inside a polygon with holes: in the outer ring (border included) and not strictly inside any hole. */
function inPolygon(point: Position, polygon: Ring[]): boolean {
  const [outer, ...holes] = polygon;
  return inRing(point, outer!) && !holes.some((hole) => inRing(point, hole) && !onBorder(point, hole));
}

/** Inside the ring or on its border (edges inclusive). */
function inRing(point: Position, ring: Ring): boolean {
  if (onBorder(point, ring)) return true;
  const [x, y] = point;
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function onBorder([x, y]: Position, ring: Ring): boolean {
  for (let i = 0; i + 1 < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[i + 1]!;
    const cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1);
    const within =
      x >= Math.min(x1, x2) - EPSILON &&
      x <= Math.max(x1, x2) + EPSILON &&
      y >= Math.min(y1, y2) - EPSILON &&
      y <= Math.max(y1, y2) + EPSILON;
    if (Math.abs(cross) < EPSILON && within) return true;
  }
  return false;
}
