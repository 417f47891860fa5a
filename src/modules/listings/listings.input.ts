// One ingested listing record (decisions §5 shape minus server-controlled fields), validated on its own so that a
// bad record never sinks its batch. Unknown fields are ignored (decisions §1); `null` and absent mean "unknown".
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { ValueError } from '@sinclair/typebox/value';
import type { ErrorAttributes } from '../../errors.js';
import { findUnstorableText } from '../../lib/storable-text.js';
import { LISTING_STATUSES } from './listings.schemas.js';

export const FEATURE_KEY = '^[a-z][a-z0-9_]{0,63}$';
/** Schema option read by describeErrors: the message for any failure of that schema. */
const MESSAGE = 'x-message';
const opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Text = (maxLength = 200) => Type.String({ maxLength });
const Amount = Type.Number({ minimum: 0, maximum: 1e12 });
const Count = Type.Integer({ minimum: 0, maximum: 10_000 });
const Area = Type.Number({ minimum: 0, maximum: 1e9 });
/** Epoch seconds (the wire format) or an ISO 8601 date-time as MLS feeds send it. */
const Instant = Type.Union(
  [
    Type.Number({ minimum: 0, maximum: 32503680000 }),
    Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}([T ][0-9:.]+(Z|[+-]\\d{2}:?\\d{2})?)?$' }),
  ],
  {
    [MESSAGE]: 'must be epoch seconds or an ISO 8601 date-time',
  },
);

export const OpenHouseInput = Type.Object({
  start_time: Instant,
  end_time: Instant,
  description: opt(Text(2000)),
});

export const AddressInput = Type.Object({
  street_number: opt(Text(50)),
  street_name: opt(Text()),
  unit_number: opt(Text(50)),
  city: opt(Text()),
  state: opt(Text(100)),
  postal_code: opt(Text(20)),
  country: opt(Text(100)),
  full_address: opt(Text(500)),
  street_address: opt(Text(300)),
  location: opt(
    Type.Object({
      latitude: Type.Number({ minimum: -90, maximum: 90 }),
      longitude: Type.Number({ minimum: -180, maximum: 180 }),
    }),
  ),
});

export const PropertyInput = Type.Object({
  property_type: opt(Text(100)),
  property_subtype: opt(Text(100)),
  bedroom_count: opt(Count),
  full_bathroom_count: opt(Count),
  half_bathroom_count: opt(Count),
  bathroom_count: opt(Type.Number({ minimum: 0, maximum: 10_000 })),
  square_meters: opt(Area),
  lot_square_meters: opt(Area),
  year_built: opt(Type.Integer({ minimum: 1000, maximum: 2200 })),
  parking_spaces_covered_total: opt(Count),
  parking_spaces_uncovered_total: opt(Count),
  pool: opt(Type.Boolean()),
  pets: opt(Type.Boolean()),
  number_of_pets_allowed: opt(Count),
  application_fee: opt(Type.Boolean()),
  appliances: opt(Type.Boolean()),
  furnished: opt(Type.Boolean()),
  fenced_yard: opt(Type.Boolean()),
  // additionalProperties: false — a key outside the pattern is refused here, not stored to break every read of
  // the record later (the response schema serialises feature lists only).
  features: opt(
    Type.Record(Type.String({ pattern: FEATURE_KEY }), Type.Array(Text(200), { maxItems: 200 }), {
      additionalProperties: false,
      maxProperties: 50,
      [MESSAGE]: 'must map names of the form interior_features (a-z, 0-9, _) to lists of strings',
    }),
  ),
  address: opt(AddressInput),
});

const slot = opt(Text(100));

export const ListingInput = Type.Object({
  mls: opt(Text(64)),
  mls_number: Type.String({ minLength: 1, maxLength: 64 }),
  status: Type.Union(
    LISTING_STATUSES.map((status) => Type.Literal(status)),
    { [MESSAGE]: `must be one of ${LISTING_STATUSES.join(', ')}` },
  ),
  price: opt(Amount),
  original_price: opt(Amount),
  last_price: opt(Amount),
  close_price: opt(Amount),
  close_date: opt(Instant),
  list_date: opt(Instant),
  currency: opt(Type.String({ pattern: '^[A-Z]{3}$' })),
  office_exclusive: opt(Type.Boolean()),
  content: opt(Text(20_000)),
  list_agent_mui: slot,
  co_list_agent_mui: slot,
  co_list_agent2_mui: slot,
  co_list_agent3_mui: slot,
  selling_agent_mui: slot,
  co_selling_agent_mui: slot,
  co_selling_agent2_mui: slot,
  co_selling_agent3_mui: slot,
  list_office_mls_id: slot,
  co_list_office_mls_id: slot,
  selling_office_mls_id: slot,
  co_selling_office_mls_id: slot,
  list_office_name: opt(Text(200)),
  open_houses: opt(Type.Array(OpenHouseInput, { maxItems: 100 })),
  gallery_image_urls: opt(Type.Array(Text(2000), { maxItems: 500 })),
  cover_image_url: opt(Text(2000)),
  property: opt(PropertyInput),
});
export type ListingInput = Static<typeof ListingInput>;

// Compiled once: ~50× faster than Value.Check, which matters at thousands of records per second.
const compiledInput = TypeCompiler.Compile(ListingInput);

export type Checked = { ok: true; listing: ListingInput } | { ok: false; errors: ErrorAttributes };

/** Validates one record against the schema and the rules a schema cannot say (dates in order, MLS match). */
export function checkListingInput(value: unknown, mls: string): Checked {
  if (!compiledInput.Check(value)) return { ok: false, errors: describeErrors(compiledInput.Errors(value)) };
  // What the schema cannot say but PostgreSQL refuses (NUL, lone surrogates): this record fails, not its batch.
  const unstorable = findUnstorableText(value);
  if (unstorable) return { ok: false, errors: { [unstorable.path || '(record)']: [unstorable.message] } };
  const listing = value;
  const errors: ErrorAttributes = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (listing.mls != null && listing.mls !== mls) add('mls', `must be ${mls} (the MLS of the request path) or absent`);
  for (const field of ['list_date', 'close_date'] as const) {
    const at = listing[field];
    if (at != null && toDate(at) === null) add(field, 'is not a valid date-time');
  }
  listing.open_houses?.forEach((house, index) => {
    const start = toDate(house.start_time);
    const end = toDate(house.end_time);
    if (!start) add(`open_houses.${index}.start_time`, 'is not a valid date-time');
    if (!end) add(`open_houses.${index}.end_time`, 'is not a valid date-time');
    if (start && end && end < start) add(`open_houses.${index}.end_time`, 'must not be before start_time');
  });
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, listing };
}

/**
 * Epoch seconds or ISO string → Date; a string without a zone is read as UTC. Null when invalid, or outside the
 * years 1–9999 that PostgreSQL's timestamptz takes (year 0000 does not exist there).
 */
export function toDate(value: number | string): Date | null {
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(isoOf(value).replace(' ', 'T'));
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 ? date : null;
}

const isoOf = (value: string) =>
  value.length === 10 ? `${value}T00:00:00Z` : /[Zz]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`;

/** TypeBox errors → `{ "property.bedroom_count": ["Expected integer"] }`, one message per field. */
function describeErrors(iterator: Iterable<ValueError>): ErrorAttributes {
  const errors: ErrorAttributes = {};
  for (const outer of iterator) {
    const error = explain(outer);
    const field = error.path.replace(/^\//, '').replaceAll('/', '.') || '(record)';
    if (errors[field]) continue;
    errors[field] = [((error.schema as Record<string, unknown>)[MESSAGE] as string | undefined) ?? error.message];
    if (Object.keys(errors).length >= 20) break;
  }
  return errors;
}

/**
 * The error worth showing: a schema's own message first; for a failed `X or null` union, why X failed (deeper
 * in the record, e.g. property → property.bedroom_count), not "Expected union value".
 */
function explain(error: ValueError): ValueError {
  if (typeof (error.schema as Record<string, unknown>)[MESSAGE] === 'string') return error;
  const first = error.errors[0];
  if (error.message === 'Expected union value' && first) {
    const inner = [...first][0];
    if (inner) return explain(inner);
  }
  return error;
}
