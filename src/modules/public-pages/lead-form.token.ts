// The hidden `token` of the "Ask about this home" form (docs/public-pages.md): `<brand>.<issued at>.<signature>`, the
// signature an HMAC of (listing, brand, issue time) under a key derived from SECRET_KEY for this purpose alone. It
// proves the post comes from a form this server wrote for this listing and brand (CSRF), names the brand whose lead
// channel takes the lead (so a post cannot re-route a lead to another brand), and dates the form: a form older than a
// day is refused, one sent back sooner than a person can fill it is a bot's (lead-form.service.ts). Checked under
// SECRET_KEY and each SECRET_KEY_PREVIOUS, so a form open across a key rotation still sends.
import { purposeSignature, type MasterKeys } from '../../lib/crypto.js';
import { isUuid } from '../../lib/uuid.js';

/** How long a form stays valid after the page was written. */
export const FORM_LIFETIME_SECONDS = 24 * 3600;
/** A clock a little ahead elsewhere (another API process) must not make a fresh form invalid. */
const CLOCK_SKEW_SECONDS = 60;

const signatures = (keys: MasterKeys) => purposeSignature(keys, 'listing-lead-form', 32);
const signedData = (listing: string, brand: string, issuedAt: number) =>
  `${listing.toLowerCase()}:${brand.toLowerCase()}:${issuedAt}`;

export function signFormToken(keys: MasterKeys, listing: string, brand: string, now: Date): string {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return `${brand.toLowerCase()}.${issuedAt}.${signatures(keys).sign(signedData(listing, brand, issuedAt))}`;
}

export type FormTokenCheck =
  { ok: true; brand: string; issuedAt: number } | { ok: false; reason: 'invalid' | 'expired' };

/** The brand and issue time of a token written for this listing, when it verifies and has not expired. */
export function verifyFormToken(keys: MasterKeys, listing: string, token: unknown, now: Date): FormTokenCheck {
  if (typeof token !== 'string' || token.length > 200 || !isUuid(listing)) return { ok: false, reason: 'invalid' };
  const [brand, issued, given, extra] = token.split('.');
  if (!brand || !issued || !given || extra !== undefined || !isUuid(brand) || !/^\d{1,12}$/.test(issued))
    return { ok: false, reason: 'invalid' };
  const issuedAt = Number(issued);
  if (!signatures(keys).verifies(signedData(listing, brand, issuedAt), given)) return { ok: false, reason: 'invalid' };
  const age = now.getTime() / 1000 - issuedAt;
  if (age < -CLOCK_SKEW_SECONDS) return { ok: false, reason: 'invalid' };
  if (age > FORM_LIFETIME_SECONDS) return { ok: false, reason: 'expired' };
  return { ok: true, brand: brand.toLowerCase(), issuedAt };
}
