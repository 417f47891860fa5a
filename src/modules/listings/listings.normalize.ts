// A validated input record → the flat row the upsert writes, with the derived columns computed once here
// (slot arrays, bathroom and parking totals, addresses, open_house_until) and a hash of the whole record.
import { createHash } from 'node:crypto';
import type { DB } from '../../db/types.js';
import { toDate, type ListingInput } from './listings.input.js';
import type { Selectable } from 'kysely';
import { AGENT_SLOTS, OFFICE_SLOTS, PROPERTY_FLAGS } from './listings.schemas.js';

type Slot = (typeof AGENT_SLOTS)[number] | (typeof OFFICE_SLOTS)[number];
type Flag = (typeof PROPERTY_FLAGS)[number];

/** Address columns: written as they are stored (plain text), so their types come from the table. */
type AddressColumn =
  | 'street_number'
  | 'street_name'
  | 'unit_number'
  | 'city'
  | 'state'
  | 'postal_code'
  | 'country'
  | 'full_address'
  | 'street_address';

/** The JSON row read by `jsonb_to_recordset` in listings.repository.ts: timestamps as ISO strings. */
export type ListingWrite = Record<Slot | Flag, string | boolean | null> &
  Pick<Selectable<DB['listings']>, AddressColumn> & {
    mls: string;
    mls_number: string;
    status: string;
    price: number | null;
    original_price: number | null;
    last_price: number | null;
    close_price: number | null;
    close_date: string | null;
    list_date: string | null;
    currency: string;
    office_exclusive: boolean | null;
    content: string | null;
    list_office_name: string | null;
    agent_muis: string[];
    office_mls_ids: string[];
    property_type: string | null;
    property_subtype: string | null;
    bedroom_count: number | null;
    full_bathroom_count: number | null;
    half_bathroom_count: number | null;
    bathroom_count: number | null;
    square_meters: number | null;
    lot_square_meters: number | null;
    year_built: number | null;
    parking_spaces_covered_total: number | null;
    parking_spaces_uncovered_total: number | null;
    parking_spaces_total: number | null;
    number_of_pets_allowed: number | null;
    features: Record<string, string[]>;
    longitude: number | null;
    latitude: number | null;
    gallery_image_urls: string[];
    cover_image_url: string | null;
    open_house_until: string | null;
    source_hash: string;
  };

export interface OpenHouseWrite {
  start_time: string;
  end_time: string;
  description: string | null;
}

export interface NormalizedListing {
  row: ListingWrite;
  openHouses: OpenHouseWrite[];
}

const iso = (value: number | string | null | undefined) =>
  value == null ? null : (toDate(value)?.toISOString() ?? null);
const orNull = <T>(value: T | null | undefined): T | null => (value === undefined ? null : value);
const blankToNull = (value: string | null | undefined) => (value == null || value.trim() === '' ? null : value.trim());

function sum(a: number | null, b: number | null, weightOfB = 1): number | null {
  if (a === null && b === null) return null;
  return (a ?? 0) + (b ?? 0) * weightOfB;
}

export function normalizeListing(input: ListingInput, mls: string): NormalizedListing {
  const property = input.property ?? {};
  const address = property.address ?? {};
  const street = [address.street_number, address.street_name, address.unit_number ? `#${address.unit_number}` : null]
    .filter(Boolean)
    .join(' ');
  const streetAddress = blankToNull(address.street_address) ?? blankToNull(street);
  const locality = [address.city, [address.state, address.postal_code].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const fullAddress =
    blankToNull(address.full_address) ?? blankToNull([streetAddress, locality].filter(Boolean).join(', '));
  const full = orNull(property.full_bathroom_count);
  const half = orNull(property.half_bathroom_count);
  const covered = orNull(property.parking_spaces_covered_total);
  const uncovered = orNull(property.parking_spaces_uncovered_total);

  const openHouses: OpenHouseWrite[] = (input.open_houses ?? []).map((house) => ({
    start_time: iso(house.start_time)!,
    end_time: iso(house.end_time)!,
    description: orNull(house.description),
  }));
  openHouses.sort((a, b) => a.start_time.localeCompare(b.start_time));
  const openHouseUntil = openHouses.reduce<string | null>(
    (latest, house) => (latest === null || house.end_time > latest ? house.end_time : latest),
    null,
  );

  const slotValues = (names: readonly Slot[]) =>
    Object.fromEntries(names.map((name) => [name, blankToNull(input[name])])) as Record<Slot, string | null>;
  const agents = slotValues(AGENT_SLOTS);
  const offices = slotValues(OFFICE_SLOTS);
  const flags = Object.fromEntries(PROPERTY_FLAGS.map((flag) => [flag, orNull(property[flag])])) as Record<
    Flag,
    boolean | null
  >;

  const row: Omit<ListingWrite, 'source_hash'> = {
    mls,
    mls_number: input.mls_number.trim(),
    status: input.status,
    price: orNull(input.price),
    original_price: orNull(input.original_price),
    last_price: orNull(input.last_price),
    close_price: orNull(input.close_price),
    close_date: iso(input.close_date),
    list_date: iso(input.list_date),
    currency: input.currency ?? 'USD',
    office_exclusive: orNull(input.office_exclusive),
    content: orNull(input.content),
    ...agents,
    ...offices,
    list_office_name: blankToNull(input.list_office_name),
    agent_muis: distinct(Object.values(agents)),
    office_mls_ids: distinct(Object.values(offices)),
    property_type: orNull(property.property_type),
    property_subtype: orNull(property.property_subtype),
    bedroom_count: orNull(property.bedroom_count),
    full_bathroom_count: full,
    half_bathroom_count: half,
    bathroom_count: property.bathroom_count ?? sum(full, half, 0.5),
    square_meters: orNull(property.square_meters),
    lot_square_meters: orNull(property.lot_square_meters),
    year_built: orNull(property.year_built),
    parking_spaces_covered_total: covered,
    parking_spaces_uncovered_total: uncovered,
    parking_spaces_total: sum(covered, uncovered),
    ...flags,
    number_of_pets_allowed: orNull(property.number_of_pets_allowed),
    features: property.features ?? {},
    street_number: orNull(address.street_number),
    street_name: orNull(address.street_name),
    unit_number: orNull(address.unit_number),
    city: orNull(address.city),
    state: orNull(address.state),
    postal_code: orNull(address.postal_code),
    country: orNull(address.country),
    full_address: fullAddress,
    street_address: streetAddress,
    longitude: address.location?.longitude ?? null,
    latitude: address.location?.latitude ?? null,
    gallery_image_urls: input.gallery_image_urls ?? [],
    cover_image_url: orNull(input.cover_image_url) ?? input.gallery_image_urls?.[0] ?? null,
    open_house_until: openHouseUntil,
  };
  const sourceHash = createHash('sha1')
    .update(JSON.stringify(row))
    .update(JSON.stringify(openHouses))
    .digest('base64url');
  return { row: { ...row, source_hash: sourceHash }, openHouses };
}

function distinct(values: (string | null)[]): string[] {
  return [...new Set(values.filter((value): value is string => value !== null))];
}
