// The closed catalogue of a deal's context keys and their types (docs/deals.md). A context value is a number,
// an ISO date (YYYY-MM-DD) or a text; an unknown key or a value of the wrong type is a 400.
import type { ErrorAttributes } from '../../errors.js';
import type { DealContext } from './deals.columns.js';

export type ContextType = 'number' | 'date' | 'text';

export const CONTEXT_KEYS = {
  list_price: 'number',
  sales_price: 'number',
  lease_price: 'number',
  earnest_money: 'number',
  commission_listing: 'number',
  commission_buyer: 'number',
  year_built: 'number',
  square_feet: 'number',
  list_date: 'date',
  contract_date: 'date',
  option_period: 'date',
  financing_due: 'date',
  title_due: 'date',
  inspection_date: 'date',
  closing_date: 'date',
  possession_date: 'date',
  expiration_date: 'date',
  lease_begin: 'date',
  lease_end: 'date',
  full_address: 'text',
  street_address: 'text',
  unit_number: 'text',
  city: 'text',
  state: 'text',
  postal_code: 'text',
  county: 'text',
  mls_number: 'text',
  file_id: 'text',
} as const satisfies Record<string, ContextType>;

export type ContextKey = keyof typeof CONTEXT_KEYS;
const MAX_TEXT = 500;

function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return (
    date.getUTCFullYear() === Number(match[1]) &&
    date.getUTCMonth() === Number(match[2]) - 1 &&
    date.getUTCDate() === Number(match[3])
  );
}

/**
 * `current` with `changes` applied (null removes a key), every change checked against the catalogue; problems go
 * to `attributes` under `context.<key>`. Texts are trimmed; an empty text removes the key.
 */
export function applyContext(
  current: DealContext,
  changes: Record<string, unknown>,
  attributes: ErrorAttributes,
): DealContext {
  const next: DealContext = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    const field = `context.${key}`;
    const type = (CONTEXT_KEYS as Record<string, ContextType>)[key];
    if (!type) {
      attributes[field] = [`is not a context key (known: ${Object.keys(CONTEXT_KEYS).join(', ')})`];
      continue;
    }
    if (value === null) {
      delete next[key];
      continue;
    }
    if (type === 'number') {
      if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > 1e15)
        attributes[field] = ['must be a number'];
      else next[key] = value;
    } else if (type === 'date') {
      if (typeof value !== 'string' || !isIsoDate(value)) attributes[field] = ['must be a date (YYYY-MM-DD)'];
      else next[key] = value;
    } else if (typeof value !== 'string' || value.length > MAX_TEXT)
      attributes[field] = [`must be a text of at most ${MAX_TEXT} characters`];
    else if (value.trim() === '') delete next[key];
    else next[key] = value.trim();
  }
  const contract = next.contract_date;
  const closing = next.closing_date;
  if (typeof contract === 'string' && typeof closing === 'string' && closing < contract)
    attributes['context.closing_date'] = ['must not be before contract_date'];
  return next;
}
