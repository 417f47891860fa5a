// Links to the public listing page (decisions §21): `WEB_URL/l/<listing>?b=<brand>.<signature>`. The signature is an
// HMAC of the listing and the brand under a key derived from SECRET_KEY for this purpose alone, so a link styles the
// page with the brand it was written for and no other: a changed brand, or a `b` copied onto another listing's link,
// does not verify and the page falls back to its unsigned style. Signed with SECRET_KEY, checked under it and each
// SECRET_KEY_PREVIOUS, so links in mail sent before a rotation keep their brand. No expiry: the page is public
// anyway, the signature only binds the style.
import type { Config } from '../../config.js';
import { purposeSignature, type MasterKeys } from '../../lib/crypto.js';
import { isUuid } from '../../lib/uuid.js';

/** 128 bits of the HMAC, hex: enough against forgery, short in a URL. */
const signatures = (keys: MasterKeys) => purposeSignature(keys, 'listing-page-brand', 32);
const signedData = (listing: string, brand: string) => `${listing.toLowerCase()}:${brand.toLowerCase()}`;

export const LISTING_PAGE_PREFIX = '/l/';

/** The `b` parameter that styles the page of `listing` with `brand`. */
export function signedBrandParameter(keys: MasterKeys, listing: string, brand: string): string {
  return `${brand.toLowerCase()}.${signatures(keys).sign(signedData(listing, brand))}`;
}

/** The brand a `b` parameter names when its signature holds for this listing under a configured key; else null. */
export function verifiedBrand(keys: MasterKeys, listing: string, b: unknown): string | null {
  if (typeof b !== 'string' || !isUuid(listing)) return null;
  const [brand, given, extra] = b.split('.');
  if (!brand || !given || extra !== undefined || !isUuid(brand)) return null;
  return signatures(keys).verifies(signedData(listing, brand), given) ? brand.toLowerCase() : null;
}

/**
 * The address of a listing's public page on WEB_URL, styled with `brand` (signed) or, with null, by the page's own
 * choice (the listing agent's brand, else neutral). What emails, notifications and print templates link to.
 */
export function listingPageUrl(
  config: Pick<Config, 'webUrl'> & MasterKeys,
  listing: string,
  brand: string | null,
): string {
  const path = `${config.webUrl}${LISTING_PAGE_PREFIX}${encodeURIComponent(listing.toLowerCase())}`;
  return brand ? `${path}?b=${signedBrandParameter(config, listing, brand)}` : path;
}

/**
 * Where Gable's own writing (alert emails, print templates) links a listing: the brokerage's page from the
 * LISTING_URL template when the operator set one (`{id}`, `{mls}`, `{mls_number}`, URL-encoded), else the public
 * listing page styled with `brand` (signed, so the link cannot be re-branded).
 */
export function listingLinkUrl(
  config: Pick<Config, 'webUrl' | 'listingUrl'> & MasterKeys,
  listing: { id: string; mls: string; mls_number: string },
  brand: string | null,
): string {
  if (config.listingUrl === null) return listingPageUrl(config, listing.id, brand);
  return config.listingUrl
    .replaceAll('{id}', encodeURIComponent(listing.id))
    .replaceAll('{mls}', encodeURIComponent(listing.mls))
    .replaceAll('{mls_number}', encodeURIComponent(listing.mls_number));
}
