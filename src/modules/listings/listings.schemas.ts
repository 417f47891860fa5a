// Wire shapes of the listing record (spec 2.10 + decisions §5) and of the ingest endpoint. The record schema also
// drives fast serialization: a field missing here is dropped from responses.
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, Uuid } from '../../platform/schemas.js';
import { Agent } from '../users/users.schemas.js';

export const LISTING_STATUSES = [
  'Active',
  'Coming Soon',
  'Active Under Contract',
  'Pending',
  'Sold',
  'Leased',
  'Temp Off Market',
  'Withdrawn',
  'Expired',
  'Cancelled',
] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const AGENT_SLOTS = [
  'list_agent_mui',
  'co_list_agent_mui',
  'co_list_agent2_mui',
  'co_list_agent3_mui',
  'selling_agent_mui',
  'co_selling_agent_mui',
  'co_selling_agent2_mui',
  'co_selling_agent3_mui',
] as const;
export const OFFICE_SLOTS = [
  'list_office_mls_id',
  'co_list_office_mls_id',
  'selling_office_mls_id',
  'co_selling_office_mls_id',
] as const;
export const PROPERTY_FLAGS = ['pool', 'pets', 'application_fee', 'appliances', 'furnished', 'fenced_yard'] as const;

const NullableString = Nullable(Type.String());
const NullableNumber = Nullable(Type.Number());
const NullableBoolean = Nullable(Type.Boolean());

export const FormattedAttribute = Type.Object({
  type: Type.Literal('formatted_attribute'),
  text: Type.String({ description: 'With its label, e.g. "3 Beds"' }),
  text_no_label: Type.String({ description: 'Without the label, e.g. "3"' }),
  value: Type.Number(),
  label: Type.Optional(Type.String()),
  measurement: Type.Optional(Type.String({ description: 'Unit, e.g. "ft²"' })),
});
export type FormattedAttribute = Static<typeof FormattedAttribute>;

/** A display string whose value is text (an address, the courtesy line). */
export const FormattedText = Type.Object({
  type: Type.Literal('formatted_attribute'),
  text: Type.String(),
  text_no_label: Type.String(),
  value: Type.String(),
  label: Type.Optional(Type.String()),
});
export type FormattedText = Static<typeof FormattedText>;

const entry = Type.Optional(FormattedAttribute);
const textEntry = Type.Optional(FormattedText);
export const Formatted = Type.Object(
  {
    price: entry,
    original_price: entry,
    close_price: entry,
    beds: entry,
    baths: entry,
    square_meters: entry,
    square_feet: entry,
    lot_size: entry,
    year_built: entry,
    // The names existing clients read (docs/existing-clients.md).
    full_address: textEntry,
    street_address: textEntry,
    bedroom_count: entry,
    total_bathroom_count: entry,
    bathrooms: entry,
    lot_size_square_feet: entry,
    lot_size_acres: entry,
    parking_spaces: entry,
    courtesy: textEntry,
  },
  { description: 'Display strings of the record; an entry is absent when its value is unknown' },
);
export type Formatted = Static<typeof Formatted>;

export const LocationOut = Type.Object({
  longitude: Type.Number(),
  latitude: Type.Number(),
  type: Type.Literal('location'),
});

export const ListingAddress = Type.Object({
  type: Type.Literal('address'),
  street_number: NullableString,
  street_name: NullableString,
  unit_number: NullableString,
  city: NullableString,
  state: NullableString,
  postal_code: NullableString,
  country: NullableString,
  full_address: NullableString,
  street_address: NullableString,
  location: Nullable(LocationOut),
});

export const ListingProperty = Type.Object({
  type: Type.Literal('property'),
  property_type: NullableString,
  property_subtype: NullableString,
  bedroom_count: NullableNumber,
  full_bathroom_count: NullableNumber,
  half_bathroom_count: NullableNumber,
  bathroom_count: NullableNumber,
  square_meters: NullableNumber,
  lot_square_meters: NullableNumber,
  year_built: NullableNumber,
  parking_spaces_covered_total: NullableNumber,
  parking_spaces_uncovered_total: NullableNumber,
  parking_spaces_total: NullableNumber,
  pool: NullableBoolean,
  pets: NullableBoolean,
  number_of_pets_allowed: NullableNumber,
  application_fee: NullableBoolean,
  appliances: NullableBoolean,
  furnished: NullableBoolean,
  fenced_yard: NullableBoolean,
  features: Type.Record(Type.String(), Type.Array(Type.String()), {
    description: 'Feature lists by name, e.g. {"interior_features": ["Fireplace"]}',
  }),
  description: Nullable(
    Type.String({ description: 'The remarks (`content` of the listing), under the name existing clients read' }),
  ),
  address: ListingAddress,
});

export const OpenHouseOut = Type.Object({
  type: Type.Literal('open_house'),
  start_time: EpochSeconds,
  end_time: EpochSeconds,
  description: NullableString,
});

/** An MLS as its registry describes it (`gable admin mls set`). */
export const MlsInfo = Type.Object(
  {
    type: Type.Literal('mls_info'),
    mls: Type.String(),
    name: Type.String(),
    disclaimer: Nullable(
      Type.String({
        description:
          "Shown next to the MLS's listings; a {{currentYear}} placeholder is kept as written for the client to fill in",
      }),
    ),
    logo_url: Nullable(Type.String()),
  },
  { title: 'MlsInfo' },
);
export type MlsInfo = Static<typeof MlsInfo>;

const slots = <K extends string>(names: readonly K[]) =>
  Object.fromEntries(names.map((name) => [name, NullableString])) as Record<K, typeof NullableString>;

export const ListingRecord = Type.Object(
  {
    type: Type.Literal('listing'),
    id: Uuid,
    property_id: Uuid,
    mls: Type.String(),
    mls_number: Type.String(),
    status: Type.String(),
    price: NullableNumber,
    original_price: NullableNumber,
    last_price: NullableNumber,
    close_price: NullableNumber,
    close_date: Nullable(EpochSeconds),
    list_date: Nullable(EpochSeconds),
    dom: Nullable(Type.Integer({ description: 'Days on market: list_date to close_date (closed) or now' })),
    cdom: Nullable(
      Type.Integer({ description: 'Cumulative days on market (equals dom: relisting history is not kept)' }),
    ),
    currency: Type.String(),
    office_exclusive: NullableBoolean,
    content: NullableString,
    ...slots(AGENT_SLOTS),
    ...slots(OFFICE_SLOTS),
    list_office_name: NullableString,
    list_agent: Type.Optional(
      Type.Union([Agent, Type.Null()], {
        description:
          'The agent of list_agent_mui (same MLS): on GET /listings/:id, and on search pages with associations[]=listing.list_agent',
      }),
    ),
    selling_agent: Type.Optional(
      Type.Union([Agent, Type.Null()], {
        description:
          'The agent of selling_agent_mui: on GET /listings/:id, and with associations[]=listing.selling_agent',
      }),
    ),
    mls_info: Type.Optional(
      Type.Union([MlsInfo, Type.Null()], {
        description: 'With associations[]=listing.mls_info; null when the MLS is not in the registry',
      }),
    ),
    location: Type.Union([Type.Object({ latitude: Type.Number(), longitude: Type.Number() }), Type.Null()], {
      description: 'property.address.location, at the top level where existing clients read it',
    }),
    property: ListingProperty,
    gallery_image_urls: Type.Array(Type.String()),
    cover_image_url: NullableString,
    open_houses: Type.Array(OpenHouseOut),
    formatted: Formatted,
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
    deleted_at: Nullable(EpochSeconds),
  },
  { description: 'A listing (spec 2.10, decisions §5)' },
);
export type ListingRecord = Static<typeof ListingRecord>;

export const ListingParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const MlsParams = Type.Object({
  mls: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' }),
});

export const MAX_INGEST_BATCH = 1000;
export const INGEST_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/** One record as a feed sends it: the documentation's example, and the base the route fuzzer mutates. */
const EXAMPLE_RECORD = {
  mls_number: '20261123-001',
  status: 'Active',
  price: 450000,
  list_date: '2026-10-01T15:00:00Z',
  content: 'Charming bungalow with a renovated kitchen.',
  list_agent_mui: 'AG-1',
  list_office_mls_id: 'OF-1',
  gallery_image_urls: ['https://img.example.com/1.jpg'],
  open_houses: [{ start_time: '2026-11-28T16:00:00Z', end_time: '2026-11-28T18:00:00Z', description: 'Saturday tour' }],
  property: {
    property_type: 'Residential',
    bedroom_count: 3,
    full_bathroom_count: 2,
    square_meters: 171.87,
    features: { interior_features: ['Fireplace'] },
    address: {
      street_number: '4521',
      street_name: 'Maple Ave',
      city: 'Dallas',
      state: 'TX',
      postal_code: '75219',
      location: { latitude: 32.81, longitude: -96.81 },
    },
  },
};

export const IngestBody = Type.Array(Type.Unknown(), {
  maxItems: MAX_INGEST_BATCH,
  examples: [[EXAMPLE_RECORD]],
  description: `Up to ${MAX_INGEST_BATCH} listing records (decisions §5 shape); each is validated on its own`,
});

export const IngestFailure = Type.Object({
  index: Type.Integer({ description: 'Position of the record in the request array' }),
  mls_number: Nullable(Type.String()),
  errors: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Field path → messages' }),
});
export type IngestFailure = Static<typeof IngestFailure>;

export const IngestResult = Type.Object({
  type: Type.Literal('listing_ingest'),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer({ description: 'Valid records identical to what is stored (nothing written, no events)' }),
  failed: Type.Array(IngestFailure),
  events: Type.Integer({ description: 'Listing events recorded' }),
});
export type IngestResult = Static<typeof IngestResult>;
