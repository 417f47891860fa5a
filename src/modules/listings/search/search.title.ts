// proposed_title: the criteria in one short line (decisions §6), e.g. `3+ Beds, $300K–$500K, Single Family in 75219`.
// Pure: the service passes boundary titles in, so the title needs no database.
import { DEFAULT_CURRENCY } from './search.schemas.js';
import type { Criteria } from './search.validation.js';

const EN_DASH = '–';
const CURRENCY_SYMBOLS: Record<string, string> = {
  USD: '$',
  CAD: 'CA$',
  AUD: 'A$',
  EUR: '€',
  GBP: '£',
  JPY: '¥',
  MXN: 'MX$',
};
const MAX_NAMED = 3;

export interface TitleContext {
  /** Titles of the criteria's boundaries, in criteria order (missing ones are skipped). */
  boundaryTitles?: string[];
}

export function proposedTitle(criteria: Criteria, context: TitleContext = {}): string {
  const parts = [
    statuses(criteria.listing_statuses),
    range(criteria.minimum_bedrooms, criteria.maximum_bedrooms, String, 'Beds'),
    range(criteria.minimum_bathrooms, criteria.maximum_bathrooms, String, 'Baths'),
    price(criteria),
    range(criteria.minimum_square_meters, criteria.maximum_square_meters, compact, 'm²'),
    range(criteria.minimum_lot_square_meters, criteria.maximum_lot_square_meters, compact, 'm² Lot'),
    builtRange(criteria.minimum_year_built, criteria.maximum_year_built),
    criteria.minimum_parking_spaces !== undefined ? `${criteria.minimum_parking_spaces}+ Parking` : null,
    kinds(criteria),
    criteria.pool === true ? 'Pool' : null,
    criteria.open_house === true ? 'Open House' : null,
    criteria.search ? `“${criteria.search}”` : null,
  ].filter((part): part is string => part !== null);
  const where = place(criteria, context);
  const head = parts.length > 0 ? parts.join(', ') : 'All Listings';
  return where ? `${head} in ${where}` : head;
}

function range(
  min: number | undefined,
  max: number | undefined,
  format: (n: number) => string,
  unit: string,
): string | null {
  if (min !== undefined && max !== undefined)
    return min === max ? `${format(min)} ${unit}` : `${format(min)}${EN_DASH}${format(max)} ${unit}`;
  if (min !== undefined) return `${format(min)}+ ${unit}`;
  if (max !== undefined) return `Up to ${format(max)} ${unit}`;
  return null;
}

function price(criteria: Criteria): string | null {
  const currency = criteria.currency ?? DEFAULT_CURRENCY;
  const symbol = CURRENCY_SYMBOLS[currency];
  const money = (n: number) => (symbol ? `${symbol}${compact(n)}` : `${compact(n)} ${currency}`);
  const { minimum_price: min, maximum_price: max } = criteria;
  if (min !== undefined && max !== undefined) return `${money(min)}${EN_DASH}${money(max)}`;
  if (min !== undefined) return `${money(min)}+`;
  if (max !== undefined) return `Up to ${money(max)}`;
  return null;
}

function builtRange(min: number | undefined, max: number | undefined): string | null {
  if (min !== undefined && max !== undefined) return `Built ${min}${EN_DASH}${max}`;
  if (min !== undefined) return `Built ${min}+`;
  if (max !== undefined) return `Built before ${max + 1}`;
  return null;
}

/** 300000 → 300K, 1500000 → 1.5M, 950 → 950. */
export function compact(n: number): string {
  const scaled = (value: number, suffix: string) => `${Number(value.toFixed(value < 10 ? 2 : 1))}${suffix}`;
  if (n >= 1_000_000_000) return scaled(n / 1_000_000_000, 'B');
  if (n >= 1_000_000) return scaled(n / 1_000_000, 'M');
  if (n >= 1_000) return scaled(n / 1_000, 'K');
  return String(Number(n.toFixed(2)));
}

function statuses(values: string[] | undefined): string | null {
  // "Active" alone is what a buyer expects by default; naming it adds nothing.
  if (!values || (values.length === 1 && values[0] === 'Active')) return null;
  return named(values, '/');
}

/** Subtypes read better than types: `RES-Single Family` → `Single Family`. */
function kinds(criteria: Criteria): string | null {
  if (criteria.property_subtypes)
    return named(
      criteria.property_subtypes.map((s) => s.replace(/^[A-Z]{2,5}-\s*/, '')),
      '/',
    );
  if (criteria.property_types) return named(criteria.property_types, '/');
  return null;
}

function place(criteria: Criteria, context: TitleContext): string | null {
  if (criteria.postal_codes) return named(criteria.postal_codes, ', ');
  const titles = context.boundaryTitles?.filter((t) => t.trim() !== '') ?? [];
  if (titles.length > 0) return named(titles, ', ');
  if (criteria.boundaries) return criteria.boundaries.length === 1 ? '1 Area' : `${criteria.boundaries.length} Areas`;
  if (criteria.points) return 'Map Area';
  return null;
}

function named(values: string[], separator: string): string {
  const unique = [...new Set(values)];
  if (unique.length <= MAX_NAMED) return unique.join(separator);
  return `${unique.slice(0, MAX_NAMED).join(separator)} +${unique.length - MAX_NAMED} more`;
}
