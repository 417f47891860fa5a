// A Graph contact (https://learn.microsoft.com/graph/api/resources/contact) as the fields of a brand contact.
// The mailbox is the source for what it says: names, company, job title, birthday and addresses it has replace
// ours; its emails and phone numbers come first and the contact keeps the others it already had (an agent's
// additions survive a sync). Anything unusable (a bad email or number, text with NUL) is dropped, not refused:
// one odd entry in a mailbox must not stop the import of the rest.
import type { ErrorAttributes } from '../../errors.js';
import {
  applyContactInput,
  EMAIL,
  EMPTY_CONTACT,
  emailKey,
  isCleanText,
  normalizeDate,
  normalizePhone,
  type ContactFields,
} from '../contacts/index.js';
import type { ContactInput } from '../contacts/contacts.schemas.js';

export const SOURCE_TYPE = 'Microsoft';
const MAX_EMAILS = 20;
const MAX_PHONES = 20;

type Json = Record<string, unknown>;

const text = (value: unknown, max = 200): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim().slice(0, max);
  return trimmed !== '' && isCleanText(trimmed) ? trimmed : undefined;
};

/** Email keys (lower case) of a Graph contact: how it is matched with the brand's contacts. */
export function graphEmails(contact: Json): string[] {
  const list = Array.isArray(contact.emailAddresses) ? contact.emailAddresses : [];
  const emails: string[] = [];
  for (const entry of list) {
    const address = text((entry as Json | null)?.address, 254);
    if (address && EMAIL.test(address) && !emails.some((e) => emailKey(e) === emailKey(address))) emails.push(address);
  }
  return emails.slice(0, MAX_EMAILS);
}

function graphPhones(contact: Json): string[] {
  const raw = [
    contact.mobilePhone,
    ...(Array.isArray(contact.businessPhones) ? contact.businessPhones : []),
    ...(Array.isArray(contact.homePhones) ? contact.homePhones : []),
  ];
  const phones: string[] = [];
  for (const value of raw) {
    const phone = typeof value === 'string' ? normalizePhone(value) : null;
    if (phone && !phones.includes(phone)) phones.push(phone);
  }
  return phones.slice(0, MAX_PHONES);
}

function graphAddresses(contact: Json): NonNullable<ContactInput['address']> {
  const addresses: NonNullable<ContactInput['address']> = [];
  for (const [key, type] of [
    ['homeAddress', 'Home'],
    ['businessAddress', 'Work'],
    ['otherAddress', 'Other'],
  ] as const) {
    const a = contact[key] as Json | null | undefined;
    if (!a || typeof a !== 'object') continue;
    const address = {
      type,
      line1: text(a.street, 500),
      city: text(a.city),
      state: text(a.state),
      postcode: text(a.postalCode, 50),
      country: text(a.countryOrRegion),
    };
    if (address.line1 || address.city || address.state || address.postcode || address.country) addresses.push(address);
  }
  return addresses;
}

/** `1980-05-17T11:59:00Z` → `1980-05-17` (a real date or nothing). */
function graphBirthday(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return normalizeDate(value.slice(0, 10));
}

/** The Graph contact applied on `base` (EMPTY for a new contact, the stored fields for a matched one). */
export function mapGraphContact(contact: Json, base: ContactFields | null): ContactFields {
  const emails = graphEmails(contact);
  const phones = graphPhones(contact);
  const merge = (ours: string[], theirs: string[], key: (v: string) => string, max: number) => {
    const seen = new Set(theirs.map(key));
    return [...theirs, ...ours.filter((v) => !seen.has(key(v)))].slice(0, max);
  };
  const input: ContactInput = {
    first_name: text(contact.givenName),
    middle_name: text(contact.middleName),
    last_name: text(contact.surname),
    nickname: text(contact.nickName),
    title: text(contact.title, 100),
    company: text(contact.companyName),
    job_title: text(contact.jobTitle),
    birthday: graphBirthday(contact.birthday),
    emails: merge(base?.emails ?? [], emails, emailKey, MAX_EMAILS),
    phone_numbers: merge(base?.phone_numbers ?? [], phones, (p) => p, MAX_PHONES),
  };
  const addresses = graphAddresses(contact);
  if (addresses.length > 0) input.address = addresses.slice(0, 10);
  // A field the mailbox does not have leaves ours as it is.
  for (const key of Object.keys(input) as (keyof ContactInput)[]) if (input[key] === undefined) delete input[key];
  const start = base ?? { ...EMPTY_CONTACT, source_type: SOURCE_TYPE };
  const attributes: ErrorAttributes = {};
  const fields = applyContactInput(start, input, attributes);
  if (Object.keys(attributes).length === 0) return fields;
  // Whatever the contacts rules still refuse is left out, field by field.
  for (const path of Object.keys(attributes)) delete input[path.split('.')[0] as keyof ContactInput];
  return applyContactInput(start, input, {});
}

/** Field-by-field equality (key order aside): an unchanged remote contact writes nothing. */
export function sameFields(a: ContactFields, b: ContactFields): boolean {
  const stable = (fields: ContactFields) => JSON.stringify(Object.entries(fields).sort(([x], [y]) => (x < y ? -1 : 1)));
  return stable(a) === stable(b);
}
