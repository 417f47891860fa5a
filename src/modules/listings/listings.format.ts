// Display strings of a listing (`formatted`): US conventions (ft², acres, "$450,000"), since the MLS feeds this
// server speaks are American; the raw metric values stay in the record for anyone who formats differently.
import type { Formatted, FormattedAttribute, FormattedText } from './listings.schemas.js';

export const SQUARE_FEET_PER_SQUARE_METER = 10.763910416709722;
const SQUARE_METERS_PER_ACRE = 4046.8564224;

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const moneyFormats = new Map<string, Intl.NumberFormat>();

export function formatMoney(amount: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 });
    } catch {
      // Not an ISO 4217 code Intl knows: fall back to "450,000 XYZ" rather than failing the whole record.
      return `${integer.format(amount)} ${currency}`;
    }
    moneyFormats.set(currency, format);
  }
  return format.format(amount);
}

function attribute(
  value: number,
  textNoLabel: string,
  label?: string,
  measurement?: string,
  text?: string,
): FormattedAttribute {
  return {
    type: 'formatted_attribute',
    text: text ?? (label ? `${textNoLabel} ${label}` : textNoLabel),
    text_no_label: textNoLabel,
    value,
    ...(label ? { label } : {}),
    ...(measurement ? { measurement } : {}),
  };
}

function textAttribute(value: string, label?: string, text?: string): FormattedText {
  return { type: 'formatted_attribute', text: text ?? value, text_no_label: value, value, ...(label ? { label } : {}) };
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

export interface FormattableListing {
  price: number | null;
  original_price: number | null;
  close_price: number | null;
  currency: string;
  bedroom_count: number | null;
  bathroom_count: number | null;
  square_meters: number | null;
  lot_square_meters: number | null;
  year_built: number | null;
  full_bathroom_count?: number | null;
  half_bathroom_count?: number | null;
  parking_spaces_total?: number | null;
  full_address?: string | null;
  street_address?: string | null;
  list_office_name?: string | null;
}

const bedsEntry = (count: number) => attribute(count, integer.format(count), plural(count, 'Bed', 'Beds'));
const bathsEntry = (count: number) => attribute(count, decimal.format(count), plural(count, 'Bath', 'Baths'));
function squareFeetEntry(squareMeters: number): FormattedAttribute {
  const feet = Math.round(squareMeters * SQUARE_FEET_PER_SQUARE_METER);
  return attribute(feet, `${integer.format(feet)} ft²`, undefined, 'ft²');
}

/** What a listing card prints (alert emails, the alert results page): `formatListing`'s texts of these entries. */
export interface CardTexts {
  price: string | null;
  beds: string | null;
  baths: string | null;
  square_feet: string | null;
  /** The street address, else the full address (trimmed; null when neither is given). */
  street: string | null;
}

/**
 * The card's texts alone, as `formatListing` writes them (the same functions): a page of 24 cards formatted every
 * entry of every listing (three prices, lot sizes, the names existing clients read) to print four of them.
 */
export function formatCardTexts(
  listing: Pick<
    FormattableListing,
    'price' | 'currency' | 'bedroom_count' | 'bathroom_count' | 'square_meters' | 'street_address' | 'full_address'
  >,
): CardTexts {
  return {
    price: listing.price === null ? null : formatMoney(listing.price, listing.currency),
    beds: listing.bedroom_count === null ? null : bedsEntry(listing.bedroom_count).text,
    baths: listing.bathroom_count === null ? null : bathsEntry(listing.bathroom_count).text,
    square_feet: listing.square_meters === null ? null : squareFeetEntry(listing.square_meters).text,
    street: listing.street_address?.trim() || listing.full_address?.trim() || null,
  };
}

export function formatListing(listing: FormattableListing): Formatted {
  const formatted: Formatted = {};
  // Prices print without a label ("$450,000"): the label is there for clients that want one.
  const money = (value: number | null, label: string): FormattedAttribute | undefined => {
    if (value === null) return undefined;
    const text = formatMoney(value, listing.currency);
    return attribute(value, text, label, listing.currency, text);
  };
  const price = money(listing.price, 'Price');
  if (price) formatted.price = price;
  const original = money(listing.original_price, 'Original Price');
  if (original) formatted.original_price = original;
  const closed = money(listing.close_price, 'Sold Price');
  if (closed) formatted.close_price = closed;

  if (listing.bedroom_count !== null) formatted.beds = bedsEntry(listing.bedroom_count);
  if (listing.bathroom_count !== null) formatted.baths = bathsEntry(listing.bathroom_count);
  if (listing.square_meters !== null) {
    const meters = listing.square_meters;
    formatted.square_meters = attribute(meters, `${integer.format(meters)} m²`, undefined, 'm²');
    formatted.square_feet = squareFeetEntry(meters);
  }
  if (listing.lot_square_meters !== null) formatted.lot_size = lotSize(listing.lot_square_meters);
  if (listing.year_built !== null) {
    formatted.year_built = attribute(
      listing.year_built,
      String(listing.year_built),
      'Year Built',
      undefined,
      `Built in ${listing.year_built}`,
    );
  }
  Object.assign(formatted, existingClientNames(listing, formatted));
  return formatted;
}

/**
 * The entries existing clients (the WordPress plugin) read under their own names: `bedroom_count`,
 * `total_bathroom_count`, `bathrooms`, `lot_size_square_feet`, `lot_size_acres`, `parking_spaces`, `full_address`,
 * `street_address`, `courtesy`. Each is absent when its value is unknown, like every other entry.
 */
function existingClientNames(listing: FormattableListing, formatted: Formatted): Formatted {
  const names: Formatted = {};
  if (formatted.beds) names.bedroom_count = formatted.beds;
  if (formatted.baths) {
    names.total_bathroom_count = formatted.baths;
    names.bathrooms =
      bathroomBreakdown(
        formatted.baths.value,
        listing.full_bathroom_count ?? null,
        listing.half_bathroom_count ?? null,
      ) ?? formatted.baths;
  }
  if (listing.lot_square_meters !== null) {
    const feet = Math.round(listing.lot_square_meters * SQUARE_FEET_PER_SQUARE_METER);
    const acres = Math.round((listing.lot_square_meters / SQUARE_METERS_PER_ACRE) * 100) / 100;
    names.lot_size_square_feet = attribute(
      feet,
      integer.format(feet),
      'Sq Ft Lot',
      'ft²',
      `${integer.format(feet)} ft²`,
    );
    names.lot_size_acres = attribute(acres, decimal.format(acres), plural(acres, 'Acre', 'Acres'), 'acres');
  }
  const parking = listing.parking_spaces_total ?? null;
  if (parking !== null)
    names.parking_spaces = attribute(
      parking,
      integer.format(parking),
      plural(parking, 'Parking Space', 'Parking Spaces'),
    );
  const fullAddress = listing.full_address?.trim();
  if (fullAddress) names.full_address = textAttribute(fullAddress);
  const streetAddress = listing.street_address?.trim();
  if (streetAddress) names.street_address = textAttribute(streetAddress);
  const office = listing.list_office_name?.trim();
  if (office) names.courtesy = textAttribute(office, 'Listing courtesy of', `Listing courtesy of ${office}`);
  return names;
}

/** "2 Full, 1 Half Baths" when the feed split them; the total (2.5) is the value. */
function bathroomBreakdown(total: number, full: number | null, half: number | null): FormattedAttribute | undefined {
  if (full === null || half === null || half === 0) return undefined;
  const textNoLabel = `${integer.format(full)} Full, ${integer.format(half)} Half`;
  return attribute(total, textNoLabel, 'Baths');
}

/** Lots under an acre read in ft², larger ones in acres (how US listings print them). */
function lotSize(squareMeters: number): FormattedAttribute {
  if (squareMeters < SQUARE_METERS_PER_ACRE) {
    const feet = Math.round(squareMeters * SQUARE_FEET_PER_SQUARE_METER);
    return attribute(feet, `${integer.format(feet)} ft²`, 'Lot', 'ft²', `${integer.format(feet)} ft² Lot`);
  }
  const acres = Math.round((squareMeters / SQUARE_METERS_PER_ACRE) * 100) / 100;
  const text = `${decimal.format(acres)} ${plural(acres, 'Acre', 'Acres')}`;
  return attribute(acres, text, 'Lot', 'acres', `${text} Lot`);
}
