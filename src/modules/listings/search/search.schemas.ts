// Wire shapes of listing search: the criteria of spec §2.5 (shared with saved searches), the sort descriptor,
// paging, and the response envelope. Every criterion is optional and nullable: null means "no filter", exactly
// like omitting it (saved-search responses echo nulls back, and clients send them back unchanged).
import { Type, type Static } from '@sinclair/typebox';
import { Limit, PagingQuery, Start, optionalNullable as optional } from '../../../platform/schemas.js';

const Amount = Type.Number({ minimum: 0 });
/** Compared with integer columns: anything beyond int4 would fail in SQL (a 500) instead of here (a 400). */
const Count = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });
/** Epoch seconds of years 1 to 9999: to_timestamp() fails beyond that. */
const Epoch = (description: string) => Type.Number({ minimum: -62_135_596_800, maximum: 253_402_300_799, description });
const Year = Type.Integer({ minimum: 0, maximum: 9999 });
const Strings = Type.Array(Type.String({ maxLength: 200 }), { maxItems: 1000 });
const MlsNumber = Type.String({ maxLength: 64 });

export const Location = Type.Object({
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
});
export type Location = Static<typeof Location>;

/** Tri-state flags: true → flag true; false → false or unknown (null); null/omitted → no filter. */
export const TRI_STATE_FLAGS = ['pool', 'pets', 'application_fee', 'appliances', 'furnished', 'fenced_yard'] as const;
export type TriStateFlag = (typeof TRI_STATE_FLAGS)[number];

export const SORT_KEYS = [
  'status',
  'price',
  'close_price',
  'mls',
  'list_date',
  'bedrooms',
  'bathrooms',
  'square_feet',
  'lot_size',
  'year_built',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

const SORT_WORD = `[-+]?(?:${SORT_KEYS.join('|')})`;
/**
 * The legacy `order_by[]` words where they always apply (no `sort` can override them): each item a comma-separated
 * list of `-key` (descending), `+key` or `key`, spaces around a word and empty words ignored, exactly what
 * search.validation.ts `resolveSort` takes.
 */
export const LegacyOrderBy = Type.Array(
  Type.String({ pattern: `^\\s*(?:${SORT_WORD})?\\s*(?:,\\s*(?:${SORT_WORD})?\\s*)*$` }),
  { maxItems: 10, description: `Legacy: ["-price", "+list_date"]; keys ${SORT_KEYS.join(', ')}` },
);

export const SortTerm = Type.Object({
  by: Type.Union(SORT_KEYS.map((key) => Type.Literal(key))),
  dir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'asc (default) or desc' })),
});
export type SortTerm = Static<typeof SortTerm>;

/** The currency of a price range that names none (spec 2.5). */
export const DEFAULT_CURRENCY = 'USD';

export const SearchCriteria = Type.Object({
  minimum_price: optional(Amount),
  maximum_price: optional(Amount),
  currency: optional(
    Type.String({
      pattern: '^[A-Za-z]{3}$',
      description: `ISO 4217 currency of the price range; default ${DEFAULT_CURRENCY}`,
    }),
  ),
  minimum_square_meters: optional(Amount),
  maximum_square_meters: optional(Amount),
  minimum_lot_square_meters: optional(Amount),
  maximum_lot_square_meters: optional(Amount),
  minimum_bedrooms: optional(Count),
  maximum_bedrooms: optional(Count),
  minimum_bathrooms: optional(Type.Number({ minimum: 0, description: 'Fractional allowed (a half bath counts 0.5)' })),
  maximum_bathrooms: optional(Count),
  minimum_year_built: optional(Year),
  maximum_year_built: optional(Year),
  minimum_parking_spaces: optional(
    Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Covered plus uncovered spaces' }),
  ),
  property_types: optional(Strings),
  property_subtypes: optional(Strings),
  listing_statuses: optional(Strings),
  points: optional(
    Type.Array(Location, {
      minItems: 4,
      maxItems: 10_000,
      description: 'Closed ring: at least 4 positions, first = last',
    }),
  ),
  postal_codes: optional(Strings),
  list_agents: optional(Strings),
  selling_agents: optional(Strings),
  agents: optional(Strings),
  list_offices: optional(Strings),
  selling_offices: optional(Strings),
  offices: optional(Strings),
  brands: optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 100 })),
  boundaries: optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 100 })),
  pool: optional(Type.Boolean()),
  pets: optional(Type.Boolean()),
  application_fee: optional(Type.Boolean()),
  appliances: optional(Type.Boolean()),
  furnished: optional(Type.Boolean()),
  fenced_yard: optional(Type.Boolean()),
  office_exclusive: optional(Type.Boolean()),
  number_of_pets_allowed: optional(Count),
  open_house: optional(Type.Boolean()),
  minimum_sold_date: optional(Epoch('Epoch seconds; Sold listings must have closed at or after it')),
  minimum_list_date: optional(Epoch('Epoch seconds; list_date at or after it')),
  maximum_list_date: optional(Epoch('Epoch seconds; list_date at or before it')),
  search: optional(
    Type.String({ maxLength: 500, description: 'Web-search syntax ("quoted phrase", or, -not), English' }),
  ),
  content: optional(Type.String({ maxLength: 500, description: 'Plain words, all required, against the remarks' })),
  address: optional(Type.String({ maxLength: 500, description: 'Plain words, all required, against the address' })),
});
export type SearchCriteria = Static<typeof SearchCriteria>;

/** Body of every listing-search endpoint: criteria + sort + paging (+ the legacy `order_by`). */
export const SearchBody = Type.Composite([
  SearchCriteria,
  Type.Object({
    sort: optional(Type.Array(SortTerm, { maxItems: 10 })),
    order_by: Type.Optional(
      Type.Array(Type.String(), { maxItems: 10, description: 'Legacy: ["-price", "+list_date"]' }),
    ),
    // No defaults here (unlike PagingQuery): a body without them falls back to the query string, then 0 / 50.
    start: Type.Optional(Start()),
    limit: Type.Optional(Limit()),
    // What existing clients send (decisions §19): one brand, and exact MLS numbers; both are anchors.
    brand: optional(
      Type.String({ format: 'uuid', description: 'One brand: the same criterion and anchor as `brands: [brand]`' }),
    ),
    mls_number: Type.Optional(
      Type.Union([MlsNumber, Type.Array(MlsNumber, { maxItems: 1000 }), Type.Null()], {
        description: 'Exact MLS number(s), up to 1,000: an anchor',
      }),
    ),
  }),
]);
export type SearchBody = Static<typeof SearchBody>;

/** Query of the POST endpoints: paging and the legacy `order_by[]=-price` may come in the query string too. */
export const SearchQuery = Type.Object({
  order_by: Type.Optional(Type.Array(Type.String(), { maxItems: 10 })),
  start: Type.Optional(Start()),
  limit: Type.Optional(Limit()),
});
export type SearchQuery = Static<typeof SearchQuery>;

/** The deprecated `GET /listings/search?q=&mls_number=&status[]=`. */
export const LegacySearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 500 })),
  mls_number: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(Strings),
  order_by: Type.Optional(LegacyOrderBy),
  ...PagingQuery,
});
export type LegacySearchQuery = Static<typeof LegacySearchQuery>;

export const BrandParams = Type.Object({ brand: Type.String({ format: 'uuid' }) });

export const SearchInfo = {
  proposed_title: Type.String({ description: 'Short summary of the criteria' }),
};

export const CountResponse = Type.Object({
  code: Type.Literal('OK'),
  data: Type.Object({ total: Type.Integer() }),
  info: Type.Object({ count: Type.Integer(), total: Type.Integer(), ...SearchInfo }),
});
