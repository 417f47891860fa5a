// The preferences form's CSRF field (docs/public-pages.md "Alert preferences"): `<issued at>.<signature>`, an HMAC of
// the alert token and the issue time under a key derived from SECRET_KEY for this purpose alone. A post needs one made
// for the same token within a day: a form on another site cannot produce it, and a copied one does not fit another
// link. No session or cookie is needed (the token in the address already names the contact).
import { purposeSignature, type MasterKeys } from '../../lib/crypto.js';

const FORM_LIFETIME_SECONDS = 24 * 3600;
/** A page served a moment "in the future" by another process's clock is still accepted. */
const CLOCK_SKEW_SECONDS = 300;

const signatures = (keys: MasterKeys) => purposeSignature(keys, 'alert-preferences-form', 32);

export function preferencesFormToken(keys: MasterKeys, alertToken: string, now: Date): string {
  const issued = Math.floor(now.getTime() / 1000);
  return `${issued}.${signatures(keys).sign(`${alertToken}:${issued}`)}`;
}

export function preferencesFormTokenHolds(keys: MasterKeys, alertToken: string, given: unknown, now: Date): boolean {
  if (typeof given !== 'string') return false;
  const match = /^([0-9]{1,12})\.([0-9a-f]{32})$/.exec(given);
  if (!match) return false;
  const age = Math.floor(now.getTime() / 1000) - Number(match[1]);
  if (age > FORM_LIFETIME_SECONDS || age < -CLOCK_SKEW_SECONDS) return false;
  return signatures(keys).verifies(`${alertToken}:${match[1]}`, match[2]!);
}
