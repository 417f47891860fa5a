// A card's texts (alert emails, the alert results page) are the listing record's `formatted` texts, whatever the data.
import { describe, expect, it } from 'vitest';
import { formatCardTexts, formatListing, type FormattableListing } from './listings.format.js';

const base: FormattableListing = {
  price: 450_000,
  original_price: 475_000,
  close_price: null,
  currency: 'USD',
  bedroom_count: 3,
  bathroom_count: 2.5,
  square_meters: 172.4,
  lot_square_meters: 600,
  year_built: 1999,
  street_address: ' 12 Elm St ',
  full_address: '12 Elm St, Dallas, TX 75201',
};

const variants: Record<string, Partial<FormattableListing>> = {
  'a full listing': {},
  'one bed, one bath, a euro price': { bedroom_count: 1, bathroom_count: 1, currency: 'EUR' },
  'an unknown currency code': { currency: 'XQZ' },
  'nothing known but the full address': {
    price: null,
    bedroom_count: null,
    bathroom_count: null,
    square_meters: null,
    street_address: '   ',
  },
  'no address at all': { street_address: null, full_address: null },
};

describe('formatCardTexts', () => {
  for (const [name, change] of Object.entries(variants))
    it(`prints what formatListing prints: ${name}`, () => {
      const listing = { ...base, ...change };
      const formatted = formatListing(listing);
      expect(formatCardTexts(listing)).toEqual({
        price: formatted.price?.text ?? null,
        beds: formatted.beds?.text ?? null,
        baths: formatted.baths?.text ?? null,
        square_feet: formatted.square_feet?.text ?? null,
        street: formatted.street_address?.text ?? formatted.full_address?.text ?? null,
      });
    });

  it('prints the card of a full listing as people read it', () => {
    expect(formatCardTexts(base)).toEqual({
      price: '$450,000',
      beds: '3 Beds',
      baths: '2.5 Baths',
      square_feet: '1,856 ft²',
      street: '12 Elm St',
    });
  });
});
