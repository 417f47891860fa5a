// Synthetic listings: plausible records (decisions §5 input shape) drawn from a seeded PRNG, so a seed always
// gives the same data. Sizes drive beds and baths, price follows size and place, statuses are weighted like a
// live market (mostly Active; Sold ones carry close_price and close_date), some listings hold open houses.
import type { ListingStatus } from './listings.schemas.js';
import {
  FIRST_NAMES,
  LAST_NAMES,
  PROPERTY_KINDS,
  REMARK_CLOSINGS,
  REMARK_FEATURES,
  REMARK_OPENINGS,
  STREET_NAMES,
  STREET_SUFFIXES,
} from './listings.places.js';
import type { SeededRandom } from './listings.random.js';
import { demoPhotoPath } from './demo-photos.js';

const DAY = 86_400;
const STATUSES: { status: ListingStatus; weight: number }[] = [
  { status: 'Active', weight: 62 },
  { status: 'Coming Soon', weight: 3 },
  { status: 'Active Under Contract', weight: 6 },
  { status: 'Pending', weight: 9 },
  { status: 'Sold', weight: 14 },
  { status: 'Leased', weight: 2 },
  { status: 'Temp Off Market', weight: 1 },
  { status: 'Withdrawn', weight: 1 },
  { status: 'Expired', weight: 1 },
  { status: 'Cancelled', weight: 1 },
];

export interface SyntheticPlace {
  longitude: number;
  latitude: number;
  city: string;
  state: string;
  postalCode: string;
  pricePerSquareMeter: number;
}

export interface SyntheticContext {
  mls: string;
  mlsNumber: string;
  /** mls_unique_id of the agent pool and mls id of the office pool. */
  agents: readonly string[];
  offices: readonly string[];
  /** Epoch seconds of "now": list dates fall in the year before it, open houses around it. */
  now: number;
  /**
   * The origin whose demo photos (demo-photos.ts) the listings show: the demo world's own server. Without it,
   * photo addresses on a reserved domain that nothing serves.
   */
  photoOrigin?: string;
}

/** To a multiple of `step`; a decimal step divides, so 36.271917 does not come out as 36.271916999999995. */
const round = (value: number, step: number) =>
  step >= 1 ? Math.round(value / step) * step : Math.round(value / step) / Math.round(1 / step);
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export function syntheticListing(
  random: SyntheticRandom,
  place: SyntheticPlace,
  context: SyntheticContext,
): Record<string, unknown> {
  const kind = random.weighted(PROPERTY_KINDS);
  const lease = kind.type === 'Residential Lease';
  const land = kind.type === 'Land';
  let { status } = random.weighted(STATUSES);
  if (status === 'Sold' && lease) status = 'Leased';
  if (status === 'Leased' && !lease) status = 'Sold';

  const squareMeters = land ? null : round(kind.medianSquareMeters * Math.exp(0.35 * random.normal()), 0.01);
  const lotSquareMeters = kind.lot ? round((land ? 4000 : 600) * Math.exp(0.6 * random.normal()), 1) : null;
  const bedrooms =
    squareMeters === null
      ? null
      : clamp(Math.round(squareMeters / 55 + random.between(-0.7, 0.7)), kind.type === 'Commercial' ? 0 : 1, 8);
  const fullBaths = bedrooms === null ? null : clamp(Math.round(bedrooms * 0.6 + random.between(-0.4, 0.6)), 1, 6);
  const halfBaths = fullBaths === null ? null : random.chance(0.45) ? 1 : 0;

  const area = squareMeters ?? (lotSquareMeters ?? 4000) / 20;
  const value = area * place.pricePerSquareMeter * Math.exp(0.25 * random.normal());
  const price = lease ? round(value / 180, 25) : round(value, 1000);
  const originalPrice = random.chance(0.25) ? round(price * random.between(1.02, 1.12), lease ? 25 : 1000) : price;

  const listDate = context.now - Math.floor(random.between(0, 365) * DAY);
  const closed = status === 'Sold' || status === 'Leased';
  const closeDate = closed ? Math.min(context.now - 3600, listDate + Math.floor(random.between(7, 90) * DAY)) : null;
  const closePrice = closed ? round(price * random.between(0.94, 1.03), lease ? 25 : 1000) : null;

  const streetNumber = String(random.integer(100, 9899));
  const streetName = `${random.pick(STREET_NAMES)} ${random.pick(STREET_SUFFIXES)}`;
  const unitNumber =
    kind.subtype === 'RES-Condo' || kind.subtype === 'LSE-Apartment' ? String(random.integer(101, 2420)) : null;
  const agent = () => random.pick(context.agents);
  const office = () => random.pick(context.offices);
  const sellingSide = closed || status === 'Pending' || status === 'Active Under Contract';
  const photos = Array.from({ length: random.integer(4, 12) }, (_, i) =>
    context.photoOrigin
      ? new URL(demoPhotoPath(context.mlsNumber, i), context.photoOrigin).toString()
      : `https://images.gable.example/${context.mls}/${context.mlsNumber}/${i + 1}.jpg`,
  );
  // Drawn in the order the record's fields used to draw them, so a seed keeps giving the same listings.
  const officeExclusive = random.chance(0.02);
  const content = remarks(random, kind.subtype, place.city);
  const listAgent = agent();
  const coListAgent = random.chance(0.2) ? agent() : null;
  const sellingAgent = sellingSide ? agent() : null;
  const coSellingAgent = sellingSide && random.chance(0.1) ? agent() : null;
  const listOffice = office();

  return {
    mls_number: context.mlsNumber,
    status,
    price,
    original_price: originalPrice,
    close_price: closePrice,
    close_date: closeDate,
    list_date: listDate,
    currency: 'USD',
    office_exclusive: officeExclusive,
    content,
    list_agent_mui: listAgent,
    co_list_agent_mui: coListAgent,
    selling_agent_mui: sellingAgent,
    co_selling_agent_mui: coSellingAgent,
    list_office_mls_id: listOffice,
    list_office_name: syntheticOfficeName(listOffice),
    selling_office_mls_id: sellingSide ? office() : null,
    gallery_image_urls: photos,
    open_houses: openHouses(random, status, context.now),
    property: {
      property_type: kind.type,
      property_subtype: kind.subtype,
      bedroom_count: bedrooms,
      full_bathroom_count: fullBaths,
      half_bathroom_count: halfBaths,
      square_meters: squareMeters,
      lot_square_meters: lotSquareMeters,
      year_built: land ? null : clamp(Math.round(1995 + 22 * random.normal()), 1900, 2026),
      parking_spaces_covered_total: land
        ? null
        : random.weighted([
            { n: 0, weight: 2 },
            { n: 1, weight: 3 },
            { n: 2, weight: 6 },
            { n: 3, weight: 1 },
          ]).n,
      parking_spaces_uncovered_total: land ? null : random.integer(0, 2),
      pool: land ? null : random.chance(0.18),
      pets: lease ? random.chance(0.6) : null,
      number_of_pets_allowed: lease ? random.integer(0, 3) : null,
      application_fee: lease ? random.chance(0.8) : null,
      appliances: lease ? random.chance(0.9) : null,
      furnished: lease ? random.chance(0.15) : null,
      fenced_yard: kind.lot && !land ? random.chance(0.5) : null,
      address: {
        street_number: streetNumber,
        street_name: streetName,
        unit_number: unitNumber,
        city: place.city,
        state: place.state,
        postal_code: place.postalCode,
        country: 'US',
        location: { longitude: round(place.longitude, 1e-6), latitude: round(place.latitude, 1e-6) },
      },
    },
  };
}

/** The office of a synthetic office id ("GABLE-O3" → "Gable Realty Office 3"): the courtesy line of its listings. */
export function syntheticOfficeName(officeMlsId: string): string {
  const number = /-O(\d+)$/.exec(officeMlsId)?.[1];
  return number ? `Gable Realty Office ${number}` : `Gable Realty ${officeMlsId}`;
}

/** The slice of SeededRandom the generator needs (tests may pass their own). */
export type SyntheticRandom = Pick<
  SeededRandom,
  'next' | 'between' | 'integer' | 'chance' | 'pick' | 'weighted' | 'normal'
>;

function remarks(random: SyntheticRandom, subtype: string, city: string): string {
  const home = subtype.replace(/^[A-Z]+-/, '').toLowerCase();
  const first = random.pick(REMARK_FEATURES);
  let second = random.pick(REMARK_FEATURES);
  if (second === first) second = REMARK_FEATURES[(REMARK_FEATURES.indexOf(first) + 1) % REMARK_FEATURES.length]!;
  return `${random.pick(REMARK_OPENINGS)} ${home} in ${city} with ${first} and ${second}. ${random.pick(REMARK_CLOSINGS)}`;
}

/** ~20 % of listings on the market hold open houses: mostly in the coming 10 days, some already past. */
function openHouses(
  random: SyntheticRandom,
  status: ListingStatus,
  now: number,
): { start_time: number; end_time: number; description: string }[] {
  if ((status !== 'Active' && status !== 'Coming Soon') || !random.chance(0.2)) return [];
  return Array.from({ length: random.integer(1, 2) }, () => {
    const day = Math.floor(now / DAY) + random.integer(-5, 10);
    const start = day * DAY + random.integer(15, 20) * 3600; // 15:00–20:00 UTC ≈ US daytime
    return {
      start_time: start,
      end_time: start + random.pick([2, 3]) * 3600,
      description: random.pick(['Open house', 'Weekend open house', 'Broker open', 'Twilight tour']),
    };
  });
}

/** A person's name for a synthetic agent. */
export function syntheticName(random: SyntheticRandom): { first: string; last: string } {
  return { first: random.pick(FIRST_NAMES), last: random.pick(LAST_NAMES) };
}
