import { describe, expect, it } from 'vitest';
import { listingPageUrl, signedBrandParameter, verifiedBrand } from './listing-link.js';

const listing = '0b9c2f0e-5d1a-4c3e-9f7a-1b2c3d4e5f60';
const brand = '7d4e8a90-1234-4abc-8def-0123456789ab';
const other = '11111111-2222-4333-8444-555555555555';
const current = { secretKey: Buffer.alloc(32, 1), previousSecretKeys: [] };
const config = { ...current, webUrl: 'https://homes.example.com/gable' };

describe('listing page links', () => {
  it('builds the page address on WEB_URL, signed when it names a brand', () => {
    expect(listingPageUrl(config, listing, null)).toBe(`https://homes.example.com/gable/l/${listing}`);
    const url = new URL(listingPageUrl(config, listing, brand));
    expect(url.pathname).toBe(`/gable/l/${listing}`);
    expect(url.searchParams.get('b')).toMatch(new RegExp(`^${brand}\\.[0-9a-f]{32}$`));
    expect(verifiedBrand(current, listing, url.searchParams.get('b'))).toBe(brand);
  });

  it('binds the brand to the listing: another brand, another listing or a changed signature does not verify', () => {
    const b = signedBrandParameter(current, listing, brand);
    expect(verifiedBrand(current, listing, b.replace(brand, other))).toBeNull();
    expect(verifiedBrand(current, other, b)).toBeNull();
    expect(verifiedBrand(current, listing, `${b.slice(0, -1)}${b.endsWith('a') ? 'b' : 'a'}`)).toBeNull();
    expect(verifiedBrand(current, listing, `${b}.extra`)).toBeNull();
    for (const junk of [undefined, null, 42, ['x'], '', '.', brand, `${brand}.`, 'not-a-uuid.0123'])
      expect(verifiedBrand(current, listing, junk)).toBeNull();
    // Case does not matter (a link retyped or upper-cased by a mail client).
    expect(verifiedBrand(current, listing.toUpperCase(), b.toUpperCase())).toBe(brand);
  });

  it('checks under SECRET_KEY and each previous key, signs under SECRET_KEY only', () => {
    const old = { secretKey: Buffer.alloc(32, 2), previousSecretKeys: [] };
    const oldLink = signedBrandParameter(old, listing, brand);
    expect(verifiedBrand(current, listing, oldLink)).toBeNull();
    const rotated = { secretKey: Buffer.alloc(32, 1), previousSecretKeys: [Buffer.alloc(32, 2)] };
    expect(verifiedBrand(rotated, listing, oldLink)).toBe(brand);
    expect(signedBrandParameter(rotated, listing, brand)).toBe(signedBrandParameter(current, listing, brand));
  });
});
