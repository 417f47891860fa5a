// The checks behind contact values that come from clients, forms and files: phone numbers, emails, calendar dates
// whose year may be unknown. One definition each, used by the contact and lead services and, as formats of their
// own, by request validation (platform/validation.ts), so a schema refuses exactly what a service would.
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** National numbers (no +country code) are read in this region. */
export const DEFAULT_PHONE_REGION = 'US';

/** E.164 of a possible phone number (any common form; national numbers in DEFAULT_PHONE_REGION), else null. */
export function normalizePhone(raw: string): string | null {
  const text = raw.trim();
  if (!/\d/.test(text)) return null;
  try {
    const parsed = parsePhoneNumberFromString(text, { defaultCountry: DEFAULT_PHONE_REGION, extract: false });
    return parsed?.isPossible() ? parsed.number : null;
  } catch {
    return null;
  }
}

/** The email check of ajv-formats (what contact bodies get), for emails that come another way (CSV, leads). */
export const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `YYYY-MM-DD` of a real calendar date; year 0000 (or the form --MM-DD) = year unknown. undefined = invalid. */
export function normalizeDate(text: string): string | undefined {
  const match = /^(\d{4}|-)-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const year = match[1] === '-' ? 0 : Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return undefined;
  const leap = year === 0 || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0));
  const max = month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (day > max) return undefined;
  return `${String(year).padStart(4, '0')}-${match[2]}-${match[3]}`;
}

/** The form two addresses are compared in: the same key is the same mailbox for matching and unsubscribes. */
export const emailKey = (email: string) => email.trim().toLowerCase();
