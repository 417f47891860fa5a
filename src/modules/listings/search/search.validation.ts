// What JSON schema cannot say about criteria: the polygon ring, min ≤ max, the legacy `order_by` words, and the
// anchor rule. Also normalizes: blank text and empty arrays mean "no filter" (see docs/listing-search.md).
import { errors, type ErrorAttributes } from '../../../errors.js';
import { SORT_KEYS, type SearchCriteria, type SortKey, type SortTerm } from './search.schemas.js';

/** Criteria after normalization: every absent, null, blank or empty value is gone. */
export type Criteria = { [K in keyof SearchCriteria]?: Exclude<SearchCriteria[K], null> };
export type ResolvedSort = Required<SortTerm>[];

export const ANCHOR_MESSAGE = 'Request too broad. Either define mls, brand, or geographic boundaries';
/** Spec §2.5: geographic anchors and scope anchors. The owner brand and empty arrays are not anchors. */
const ANCHORS = [
  'points',
  'boundaries',
  'brands',
  'agents',
  'list_agents',
  'selling_agents',
  'list_offices',
  'selling_offices',
  'offices',
] as const;

const RANGES = [
  ['minimum_price', 'maximum_price'],
  ['minimum_square_meters', 'maximum_square_meters'],
  ['minimum_lot_square_meters', 'maximum_lot_square_meters'],
  ['minimum_bedrooms', 'maximum_bedrooms'],
  ['minimum_bathrooms', 'maximum_bathrooms'],
  ['minimum_year_built', 'maximum_year_built'],
  ['minimum_list_date', 'maximum_list_date'],
] as const satisfies readonly (readonly [keyof SearchCriteria, keyof SearchCriteria])[];

/** Validates and normalizes; throws one 400 Validation listing every bad field. */
export function normalizeCriteria(input: SearchCriteria): Criteria {
  const problems: ErrorAttributes = {};
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input) as [keyof SearchCriteria, unknown][]) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    // `points: []` is a ring that is too short (spec §7), not "no polygon"; other empty arrays are no filter.
    if (Array.isArray(value) && value.length === 0 && field !== 'points') continue;
    out[field] = typeof value === 'string' ? value.trim() : value;
  }
  const criteria = out as Criteria;
  if (criteria.points) {
    const problem = ringProblem(criteria.points);
    if (problem) problems.points = [problem];
  }
  for (const [min, max] of RANGES) {
    const low = criteria[min];
    const high = criteria[max];
    if (typeof low === 'number' && typeof high === 'number' && low > high)
      (problems[min] ??= []).push(`must be at most ${max}`);
  }
  if (criteria.currency) criteria.currency = criteria.currency.toUpperCase();
  const [field, messages] = Object.entries(problems)[0] ?? [];
  if (field && messages) throw errors.validation(`${field} ${messages[0]}`, problems);
  return criteria;
}

function ringProblem(points: { latitude: number; longitude: number }[]): string | null {
  if (points.length < 4) return 'must be a closed ring of at least 4 positions (first repeated last)';
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (first.latitude !== last.latitude || first.longitude !== last.longitude)
    return 'must be a closed ring: the last position must repeat the first';
  return null;
}

export function hasAnchor(criteria: Criteria): boolean {
  return ANCHORS.some((anchor) => criteria[anchor] !== undefined);
}

export function requireAnchor(criteria: Criteria): void {
  if (!hasAnchor(criteria)) throw errors.badRequest(ANCHOR_MESSAGE);
}

/**
 * The sort to apply: `sort` when given, else the legacy `order_by` words (`-price` = price desc, `+price` or
 * `price` = asc). Unknown legacy words are a 400, like an unknown `by`.
 */
export function resolveSort(sort: SortTerm[] | null | undefined, orderBy: string[] | undefined): ResolvedSort {
  if (sort && sort.length > 0) return sort.map((term) => ({ by: term.by, dir: term.dir ?? 'asc' }));
  if (!orderBy || orderBy.length === 0) return [];
  return orderBy
    .flatMap((word) => word.split(','))
    .map((word) => word.trim())
    .filter((word) => word !== '')
    .map((word) => {
      const dir = word.startsWith('-') ? 'desc' : 'asc';
      const by = word.replace(/^[-+ ]/, '');
      if (!(SORT_KEYS as readonly string[]).includes(by))
        throw errors.invalidField('order_by', `has an unknown sort key "${by}" (one of ${SORT_KEYS.join(', ')})`);
      return { by: by as SortKey, dir };
    });
}
