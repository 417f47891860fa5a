// `gable import contacts FILE.csv`: the columns of common CSV exports (Google, Outlook, Apple, generic
// first_name/email/phone sheets) mapped to contact fields by header name, `--map column=field` for the rest.
// The whole file is read and checked first: any bad row is reported by its line number and nothing is
// imported; a good file is written in one transaction (docs/contacts.md).
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import type { ErrorAttributes } from '../../errors.js';
import { applyContactInput, EMPTY_CONTACT, type ContactFields } from './contacts.input.js';
import type { ContactInput } from './contacts.schemas.js';
import { CSV_TARGETS, DATE_TARGETS, TEXT_TARGETS, type CsvTarget, type LIST_TARGETS } from './contacts.csv-targets.js';

export { CSV_TARGETS, type CsvTarget };

/** Header names (lower-cased, letters and digits only) of common exports → field. */
const KNOWN_HEADERS: Record<string, CsvTarget> = {
  ...Object.fromEntries(TEXT_TARGETS.map((t) => [t.replace(/_/g, ''), t])),
  ...Object.fromEntries(DATE_TARGETS.map((t) => [t.replace(/_/g, ''), t])),
  first: 'first_name',
  givenname: 'first_name',
  firstname: 'first_name',
  last: 'last_name',
  surname: 'last_name',
  familyname: 'last_name',
  additionalname: 'middle_name',
  middle: 'middle_name',
  prefix: 'title',
  nameprefix: 'title',
  organization: 'company',
  organizationname: 'company',
  organization1name: 'company',
  companyname: 'company',
  organization1title: 'job_title',
  position: 'job_title',
  email: 'email',
  emails: 'email',
  emailaddress: 'email',
  primaryemail: 'email',
  email1: 'email',
  email2: 'email',
  email3: 'email',
  email1value: 'email',
  email2value: 'email',
  email3value: 'email',
  email2address: 'email',
  email3address: 'email',
  phone: 'phone',
  phones: 'phone',
  phonenumber: 'phone',
  primaryphone: 'phone',
  mobile: 'phone',
  mobilephone: 'phone',
  cellphone: 'phone',
  homephone: 'phone',
  businessphone: 'phone',
  workphone: 'phone',
  otherphone: 'phone',
  phone1value: 'phone',
  phone2value: 'phone',
  phone3value: 'phone',
  tags: 'tags',
  tag: 'tags',
  labels: 'tags',
  categories: 'tags',
  groupmembership: 'tags',
  groups: 'tags',
  website: 'website',
  webpage: 'website',
  website1value: 'website',
  url: 'website',
  birthdate: 'birthday',
  dateofbirth: 'birthday',
  dob: 'birthday',
  anniversary: 'wedding_anniversary',
  weddinganniversary: 'wedding_anniversary',
  address: 'address.line1',
  street: 'address.line1',
  homestreet: 'address.line1',
  address1street: 'address.line1',
  addressline1: 'address.line1',
  line1: 'address.line1',
  addressline2: 'address.line2',
  line2: 'address.line2',
  homestreet2: 'address.line2',
  address1extendedaddress: 'address.line2',
  city: 'address.city',
  homecity: 'address.city',
  address1city: 'address.city',
  state: 'address.state',
  homestate: 'address.state',
  address1region: 'address.state',
  region: 'address.state',
  province: 'address.state',
  zip: 'address.postcode',
  zipcode: 'address.postcode',
  postalcode: 'address.postcode',
  postcode: 'address.postcode',
  homepostalcode: 'address.postcode',
  address1postalcode: 'address.postcode',
  country: 'address.country',
  homecountryregion: 'address.country',
  address1country: 'address.country',
  countryregion: 'address.country',
};

const headerKey = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

export interface CsvProblem {
  line: number;
  errors: ErrorAttributes;
}

export interface ParsedContacts {
  contacts: { line: number; fields: ContactFields }[];
  problems: CsvProblem[];
  /** Each column of the header and the field it feeds (null = not used). */
  columns: { column: string; field: CsvTarget | null }[];
}

/** `column=field` pairs of --map; a field outside CSV_TARGETS is an error naming it. */
export function parseMappings(pairs: string[]): Map<string, CsvTarget> {
  const map = new Map<string, CsvTarget>();
  for (const pair of pairs) {
    const at = pair.lastIndexOf('=');
    const column = pair.slice(0, at).trim();
    const field = pair.slice(at + 1).trim() as CsvTarget;
    if (at <= 0 || !CSV_TARGETS.includes(field))
      throw new Error(`--map ${pair}: expected column=field, field one of ${CSV_TARGETS.join(', ')}`);
    map.set(column, field);
  }
  return map;
}

/** US exports write M/D/YYYY (Outlook writes 0/0/00 for none); ISO and --MM-DD pass through to the date check. */
function isoDate(text: string): string | null {
  if (text === '' || /^0?0\/0?0\/0{2,4}$/.test(text)) return null;
  const us = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{4}))?$/.exec(text);
  if (!us) return text;
  const [month, day] = [us[1]!.padStart(2, '0'), us[2]!.padStart(2, '0')];
  return `${us[3] ?? '0000'}-${month}-${day}`;
}

const splitList = (text: string, separators: RegExp) =>
  text
    .split(separators)
    .map((v) => v.trim())
    .filter(Boolean);

function rowInput(row: string[], columns: ParsedContacts['columns']): ContactInput | null {
  const input: Record<string, unknown> = {};
  const lists: Record<(typeof LIST_TARGETS)[number], string[]> = { email: [], phone: [], tags: [], website: [] };
  const address: Record<string, string> = {};
  let anything = false;
  for (const [i, { field }] of columns.entries()) {
    const value = (row[i] ?? '').trim();
    if (!field || field === 'ignore' || value === '') continue;
    anything = true;
    if ((TEXT_TARGETS as readonly string[]).includes(field)) input[field] = value;
    else if (field === 'email' || field === 'website') lists[field].push(...splitList(value, /\s*(?:;|:::|,)\s*/));
    else if (field === 'phone') lists.phone.push(...splitList(value, /\s*(?:;|:::)\s*/));
    else if (field === 'tags')
      lists.tags.push(...splitList(value, /\s*(?:;|:::|,)\s*/).map((t) => t.replace(/^\*\s*/, '')));
    else if ((DATE_TARGETS as readonly string[]).includes(field)) input[field] = isoDate(value);
    else if (field.startsWith('address.')) address[field.slice('address.'.length)] = value;
  }
  if (!anything) return null;
  return {
    ...input,
    emails: lists.email,
    phone_numbers: lists.phone,
    tags: lists.tags.map((t) => t.slice(0, 100)),
    website: lists.website,
    address: Object.keys(address).length > 0 ? [address] : [],
    source_type: 'CSV',
  } as ContactInput;
}

/** Reads and checks the whole file; touches no database. */
export async function parseContactsCsv(
  file: string,
  mappings: Map<string, CsvTarget> = new Map(),
): Promise<ParsedContacts> {
  const result: ParsedContacts = { contacts: [], problems: [], columns: [] };
  const source = createReadStream(file);
  const parser = source.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true }));
  // pipe() does not pass on the file's errors (a missing file): the loop below throws them, instead of the stream
  // crashing the process with an unhandled 'error' event.
  source.once('error', (error) => parser.destroy(error));
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    if (result.columns.length === 0) {
      result.columns = record.map((column) => ({
        column,
        field: mappings.get(column) ?? KNOWN_HEADERS[headerKey(column)] ?? null,
      }));
      const unknown = [...mappings.keys()].filter((column) => !record.includes(column));
      if (unknown.length > 0)
        result.problems.push({
          line: info.lines,
          errors: { header: [`has no column ${unknown.map((c) => JSON.stringify(c)).join(', ')} (named in --map)`] },
        });
      continue;
    }
    const input = rowInput(record, result.columns);
    if (!input) continue;
    const errors: ErrorAttributes = {};
    const fields = applyContactInput(EMPTY_CONTACT, input, errors);
    if (Object.keys(errors).length > 0) result.problems.push({ line: info.lines, errors });
    else result.contacts.push({ line: info.lines, fields });
  }
  return result;
}
