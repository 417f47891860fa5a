// From a write body to the stored fields of a contact: trimming, the primary email and phone number, E.164
// phone numbers, calendar dates with an unknown year, tags. Every problem is collected under the name of its
// field (prefixed with `contacts.<index>.` in a bulk body) so one 400 names them all.
import type { ErrorAttributes } from '../../errors.js';
import { DEFAULT_PHONE_REGION, EMAIL, emailKey, normalizeDate, normalizePhone } from '../../lib/contact-values.js';
import type { ContactInput } from './contacts.schemas.js';
import type { ContactAddress } from './contacts.columns.js';

export { DEFAULT_PHONE_REGION, EMAIL, emailKey, normalizeDate, normalizePhone };
export const DEFAULT_SOURCE_TYPE = 'ExplicitlyCreated';

const TEXT_FIELDS = [
  'title',
  'first_name',
  'middle_name',
  'last_name',
  'nickname',
  'marketing_name',
  'partner_first_name',
  'partner_last_name',
  'partner_email',
  'company',
  'job_title',
  'profile_image_url',
  'cover_image_url',
  'source',
  'ios_address_book_id',
  'android_address_book_id',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
/** The same bounds as the body schema (contacts.schemas.ts), for fields that come another way (CSV, leads). */
const TEXT_LIMITS: Record<TextField, number> = {
  title: 100,
  first_name: 200,
  middle_name: 200,
  last_name: 200,
  nickname: 200,
  marketing_name: 200,
  partner_first_name: 200,
  partner_last_name: 200,
  partner_email: 254,
  company: 200,
  job_title: 200,
  profile_image_url: 2048,
  cover_image_url: 2048,
  source: 500,
  ios_address_book_id: 200,
  android_address_book_id: 200,
};
const DATE_FIELDS = ['birthday', 'home_anniversary', 'wedding_anniversary'] as const;
type DateField = (typeof DATE_FIELDS)[number];
const ADDRESS_KEYS = [
  'city',
  'full',
  'name',
  'type',
  'extra',
  'line1',
  'line2',
  'state',
  'country',
  'postcode',
] as const;

/** The fields of a contact a client writes (derived columns are computed from these: contacts.derive.ts). */
export type ContactFields = Record<TextField, string | null> &
  Record<DateField, string | null> & {
    emails: string[];
    phone_numbers: string[];
    website: string[];
    tags: string[];
    address: ContactAddress[];
    source_type: string;
    parked: boolean;
    unsubscribed: boolean;
    touch_freq: number | null;
    last_touch: Date | null;
    last_touch_action: string | null;
  };

export const EMPTY_CONTACT: ContactFields = {
  ...(Object.fromEntries([...TEXT_FIELDS, ...DATE_FIELDS].map((f) => [f, null])) as Record<
    TextField | DateField,
    null
  >),
  emails: [],
  phone_numbers: [],
  website: [],
  tags: [],
  address: [],
  source_type: DEFAULT_SOURCE_TYPE,
  parked: false,
  unsubscribed: false,
  touch_freq: null,
  last_touch: null,
  last_touch_action: null,
};

class Problems {
  constructor(
    readonly attributes: ErrorAttributes,
    private readonly prefix: string,
  ) {}
  add(field: string, message: string): void {
    const messages = (this.attributes[this.prefix + field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }
}

/**
 * `base` (EMPTY_CONTACT for a new contact, the stored fields for an update) with `input` applied: fields the
 * input does not name stay as they are; null clears. Problems go to `attributes` under `prefix + field`.
 */
export function applyContactInput(
  base: ContactFields,
  input: ContactInput,
  attributes: ErrorAttributes,
  prefix = '',
): ContactFields {
  const problems = new Problems(attributes, prefix);
  checkText(input, '', problems);
  const next: ContactFields = { ...base };
  for (const field of TEXT_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    next[field] = cleanText(value);
    if ((next[field]?.length ?? 0) > TEXT_LIMITS[field])
      problems.add(field, `must be at most ${TEXT_LIMITS[field]} characters`);
  }
  if (input.partner_email && next.partner_email && !EMAIL.test(next.partner_email))
    problems.add('partner_email', 'must be an email address');
  for (const field of DATE_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    const date = value === null || value.trim() === '' ? null : normalizeDate(value.trim());
    if (date === undefined)
      problems.add(field, 'must be a calendar date YYYY-MM-DD (year 0000 or --MM-DD when unknown)');
    else next[field] = date;
  }
  next.emails = mergeEmails(base.emails, input, problems);
  next.phone_numbers = mergePhones(base.phone_numbers, input, problems);
  if (input.website !== undefined)
    next.website = unique((input.website ?? []).map((w) => w.trim()).filter(Boolean), (w) => w);
  if (input.tags !== undefined) {
    const tags = (input.tags ?? []).map((t) => t.trim());
    tags.forEach((tag, i) => tag === '' && problems.add(`tags.${i}`, 'must not be blank'));
    next.tags = unique(tags.filter(Boolean), (t) => t);
  }
  if (input.address !== undefined)
    next.address = (input.address ?? []).map(cleanAddress).filter((a) => Object.keys(a).length > 0);
  if (input.source_type !== undefined) next.source_type = cleanText(input.source_type) ?? DEFAULT_SOURCE_TYPE;
  if (input.parked !== undefined) next.parked = input.parked ?? false;
  if (input.unsubscribed !== undefined) next.unsubscribed = input.unsubscribed ?? false;
  if (input.touch_freq !== undefined) next.touch_freq = input.touch_freq;
  return next;
}

function cleanText(value: string | null): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function unique<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const MAX_TEXT = 5000;

/** The list, with the primary (email / primary_email) moved or added to the front; null primary drops it. */
function mergeList(
  current: string[],
  list: string[] | null | undefined,
  primary: string | null | undefined,
  key: (value: string) => string,
): string[] {
  let result = list === undefined ? current : (list ?? []);
  if (primary !== undefined && primary !== null) result = [primary, ...result];
  else if (primary === null && list === undefined) result = result.slice(1);
  return unique(result, key);
}

function primaryOf(
  first: string | null | undefined,
  second: string | null | undefined,
  names: [string, string],
  same: (a: string, b: string) => boolean,
  problems: Problems,
) {
  if (
    first !== undefined &&
    second !== undefined &&
    !(first === null ? second === null : second !== null && same(first, second))
  ) {
    problems.add(names[1], `must equal ${names[0]} when both are sent`);
  }
  return first !== undefined ? first : second;
}

function mergeEmails(current: string[], input: ContactInput, problems: Problems): string[] {
  const primary = primaryOf(
    input.email?.trim() ?? input.email,
    input.primary_email?.trim() ?? input.primary_email,
    ['email', 'primary_email'],
    (a, b) => emailKey(a) === emailKey(b),
    problems,
  );
  const list = input.emails === undefined || input.emails === null ? input.emails : input.emails.map((e) => e.trim());
  list?.forEach((email, i) => {
    if (email.length > 254 || !EMAIL.test(email)) problems.add(`emails.${i}`, 'must be an email address');
  });
  for (const field of ['email', 'primary_email'] as const) {
    const email = input[field]?.trim();
    if (email && (email.length > 254 || !EMAIL.test(email))) problems.add(field, 'must be an email address');
  }
  return mergeList(current, list, primary, emailKey);
}

function mergePhones(current: string[], input: ContactInput, problems: Problems): string[] {
  const parse = (value: string | null | undefined, field: string) => {
    if (value === undefined || value === null) return value;
    const e164 = normalizePhone(value);
    if (!e164) problems.add(field, 'must be a phone number: E.164 (+14155550100) or a US national number');
    return e164 ?? '';
  };
  const primary = primaryOf(
    parse(input.phone_number, 'phone_number'),
    parse(input.primary_phone_number, 'primary_phone_number'),
    ['phone_number', 'primary_phone_number'],
    (a, b) => a === b,
    problems,
  );
  const list =
    input.phone_numbers === undefined || input.phone_numbers === null
      ? input.phone_numbers
      : input.phone_numbers.map((p, i) => parse(p, `phone_numbers.${i}`) ?? '');
  return mergeList(current, list, primary, (p) => p).filter(Boolean);
}

function cleanAddress(address: Record<string, string | null | undefined>): ContactAddress {
  const result: ContactAddress = {};
  for (const key of ADDRESS_KEYS) {
    const value = cleanText(address[key] ?? null);
    if (value !== null) result[key] = value;
  }
  if (!result.full && Object.keys(result).some((k) => k !== 'name' && k !== 'type')) {
    const cityLine = [result.city, [result.state, result.postcode].filter(Boolean).join(' ')]
      .filter(Boolean)
      .join(', ');
    const full = [result.line1, result.line2, cityLine, result.country].filter(Boolean).join(', ');
    if (full) result.full = full;
  }
  return result;
}

// NUL cannot be stored by PostgreSQL, and a lone UTF-16 surrogate is not text: both are refused by name.
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkText(value: unknown, path: string, problems: Problems, depth = 0): void {
  if (typeof value === 'string') {
    if (BAD_TEXT.test(value))
      problems.add(
        path || 'body',
        value.includes('\u0000') ? 'must not contain the NUL character' : 'must be valid Unicode text',
      );
    else if (value.length > MAX_TEXT) problems.add(path || 'body', `must be at most ${MAX_TEXT} characters`);
    return;
  }
  if (value === null || typeof value !== 'object' || depth > 4) return;
  for (const [key, child] of Object.entries(value))
    checkText(child, path ? `${path}.${key}` : key, problems, depth + 1);
}

/** NUL and lone surrogates anywhere in `value`, named under `prefix`. */
export function findBadText(value: unknown, attributes: ErrorAttributes, prefix = ''): void {
  checkText(value, '', new Problems(attributes, prefix));
}

/** The same check for one piece of text outside a body (a query parameter). */
export function isCleanText(value: string): boolean {
  return !BAD_TEXT.test(value);
}
