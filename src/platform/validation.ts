// Request validation with two Ajv instances. Query strings, path parameters and headers arrive as text, so
// they are coerced ("50" → 50, one value → [value]). JSON bodies are not: decisions §1 says a body field of the
// wrong type is a 400, and coercion would silently turn `null` into "" or `false` into null.
// Both speak JSON Schema 2020-12, the dialect of the OpenAPI 3.1 document the same schemas are published in
// (docs/openapi.md): a schema means one thing to the server and to a client generator (a tuple is `prefixItems`).
import { Ajv2020 as Ajv, type Options } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isValidTimeZone } from '../lib/time-zone-name.js';
import { EMAIL, normalizeDate, normalizePhone } from '../lib/contact-values.js';

const PHONE_MESSAGE = 'must be a phone number: E.164 (+14155550100) or a US national number';

/**
 * Formats of our own, each the very check the services apply, so that the document states the rule and a request
 * the schema refuses is exactly one the service would refuse (docs/openapi.md). With the message the service gave.
 */
export const CUSTOM_FORMATS: Record<string, { validate: (value: string) => boolean; message: string }> = {
  'iana-time-zone': {
    validate: isValidTimeZone,
    message: 'must be an IANA time zone name, e.g. America/Chicago',
  },
  'phone-number': {
    validate: (value) => normalizePhone(value) !== null,
    message: PHONE_MESSAGE,
  },
  /** A lead's phone: blank means none. */
  'phone-number-or-blank': {
    validate: (value) => value.trim() === '' || normalizePhone(value) !== null,
    message: PHONE_MESSAGE,
  },
  /** A lead's email, read trimmed: blank means none. */
  'email-or-blank': {
    validate: (value) => value.trim() === '' || EMAIL.test(value.trim()),
    message: 'must be an email address',
  },
  /** A contact's birthday or anniversary, read trimmed: blank clears it. */
  'partial-date': {
    validate: (value) => value.trim() === '' || normalizeDate(value.trim()) !== undefined,
    message: 'must be a calendar date YYYY-MM-DD (year 0000 or --MM-DD when unknown)',
  },
};

const COMMON: Options = { useDefaults: true, removeAdditional: true, allErrors: true, strict: false };

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...COMMON, ...options });
  addFormats.default(ajv);
  for (const [name, format] of Object.entries(CUSTOM_FORMATS)) ajv.addFormat(name, format.validate);
  return ajv;
}

export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const forBodies = createAjv({ coerceTypes: false });
  const forText = createAjv({ coerceTypes: 'array' });
  return ({ schema, httpPart }) => (httpPart === 'body' ? forBodies : forText).compile(schema as object);
}
