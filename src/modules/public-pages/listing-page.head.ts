// What a shared link previews and a search engine reads: Open Graph and Twitter card tags (the first photo as the
// image) and schema.org RealEstateListing JSON-LD. The JSON sits in a <script type="application/ld+json"> data block,
// with every <, > and & (and the two JavaScript line terminators) written as \u escapes, so no text of the listing
// can close the element or open a comment: JSON.parse of the block's text gives back exactly the data.
import { Html, html } from '../../platform/pages/html.js';
import type { ListingRecord } from '../listings/listings.schemas.js';

export interface ListingHead {
  title: string;
  description: string;
  pageUrl: string;
  photos: string[];
  siteName: string;
}

/** JSON safe inside a script element (see above). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function listingHead(head: ListingHead, jsonLd: Record<string, unknown>): Html {
  const image = head.photos[0];
  return html`<link rel="canonical" href="${head.pageUrl}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="${head.siteName}">
<meta property="og:title" content="${head.title}">
<meta property="og:description" content="${head.description}">
<meta property="og:url" content="${head.pageUrl}">
${image ? html`<meta property="og:image" content="${image}">` : ''}
<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">
<meta name="twitter:title" content="${head.title}">
<meta name="twitter:description" content="${head.description}">
${image ? html`<meta name="twitter:image" content="${image}">` : ''}
<script type="application/ld+json">${new Html(scriptJson(jsonLd))}</script>`;
}

const SCHEMA_AVAILABILITY: Record<string, string> = {
  Active: 'https://schema.org/InStock',
  'Coming Soon': 'https://schema.org/PreOrder',
  'Active Under Contract': 'https://schema.org/LimitedAvailability',
  Pending: 'https://schema.org/LimitedAvailability',
  Sold: 'https://schema.org/SoldOut',
  Leased: 'https://schema.org/SoldOut',
};

const iso = (epochSeconds: number | null) =>
  epochSeconds === null ? undefined : new Date(epochSeconds * 1000).toISOString();

/** schema.org RealEstateListing: the offer (price, availability) about the residence (address, rooms, area). */
export function listingJsonLd(record: ListingRecord, head: ListingHead): Record<string, unknown> {
  const { property } = record;
  const { address } = property;
  const residence = {
    '@type': 'SingleFamilyResidence',
    address: {
      '@type': 'PostalAddress',
      streetAddress: address.street_address ?? undefined,
      addressLocality: address.city ?? undefined,
      addressRegion: address.state ?? undefined,
      postalCode: address.postal_code ?? undefined,
      addressCountry: address.country ?? undefined,
    },
    numberOfBedrooms: property.bedroom_count ?? undefined,
    numberOfBathroomsTotal: property.bathroom_count ?? undefined,
    floorSize:
      property.square_meters === null
        ? undefined
        : { '@type': 'QuantitativeValue', value: property.square_meters, unitCode: 'MTK' },
    yearBuilt: property.year_built ?? undefined,
    geo: address.location
      ? { '@type': 'GeoCoordinates', latitude: address.location.latitude, longitude: address.location.longitude }
      : undefined,
  };
  const price = record.close_price ?? record.price;
  return {
    '@context': 'https://schema.org',
    '@type': 'RealEstateListing',
    name: head.title,
    description: record.content ?? undefined,
    url: head.pageUrl,
    image: head.photos.length > 0 ? head.photos : undefined,
    datePosted: iso(record.list_date),
    offers:
      price === null
        ? undefined
        : {
            '@type': 'Offer',
            price,
            priceCurrency: record.currency,
            availability: SCHEMA_AVAILABILITY[record.status],
          },
    about: residence,
  };
}
