// Schema-valid input for an operation of the app's own OpenAPI document: every field the schema names (optional ones
// too) filled with a plain value the schema allows, and nothing more. "Plain" on purpose: a text field without a
// format, enum or pattern gets "x", so a rule the server applies to that field in code (a uuid, a time zone, one of
// some words) refuses it, and test/fuzz/schema-honesty.test.ts sees a rule the document does not state.
import type { JsonSchema, Operation } from './cases.js';

export interface ValidInputSchema extends JsonSchema {
  prefixItems?: ValidInputSchema[];
  maxLength?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
}

/** A value of each format the schemas use; a format missing here fails the test that uses this, by name. */
const FORMAT_VALUES: Record<string, (fixtures: Record<string, string>) => unknown> = {
  uuid: (fixtures) => fixtures.uuid,
  email: () => 'someone@example.com',
  'date-time': () => '2026-11-21T12:00:00Z',
  date: () => '2026-11-21',
  uri: () => 'https://example.com/',
  'iana-time-zone': () => 'America/Chicago',
  'phone-number': () => '+14155550100',
  'phone-number-or-blank': () => '+14155550100',
  'email-or-blank': () => 'someone@example.com',
  'partial-date': () => '2026-11-21',
};

/** Values tried, in order, for a string with a `pattern` (the first it matches is sent). */
const PATTERN_CANDIDATES = [
  'USD',
  '-price',
  'created_at',
  '+14155550100',
  'ContactNote',
  'someone@example.com',
  `00000000-0000-4000-8000-000000000002.x`,
  'ab'.repeat(32),
];

/**
 * A value `schema` accepts: `fixtures[name]` for a property of that name (the brand of the test…), else a plain one
 * built from the schema. `omit` names the fields (dotted paths) to leave out, so a test can drop what it was told.
 */
export function validValue(
  schema: ValidInputSchema | undefined,
  fixtures: Record<string, string>,
  path = '',
  omit: ReadonlySet<string> = new Set(),
  depth = 0,
): unknown {
  if (!schema || depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const chosen = variants.find((v) => v.type !== 'null') ?? variants[0];
    return validValue(chosen as ValidInputSchema, fixtures, path, omit, depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, inner] of Object.entries(schema.properties ?? {})) {
        const at = path ? `${path}.${name}` : name;
        if (omit.has(at)) continue;
        out[name] = fixtures[name] ?? validValue(inner as ValidInputSchema, fixtures, at, omit, depth + 1);
      }
      return out;
    }
    case 'array': {
      if (schema.prefixItems)
        return schema.prefixItems.map((item, i) => validValue(item, fixtures, `${path}.${i}`, omit, depth + 1));
      const count = Math.max(1, schema.minItems ?? 1);
      return Array.from({ length: count }, (_, i) =>
        validValue(schema.items as ValidInputSchema, fixtures, `${path}.${i}`, omit, depth + 1),
      );
    }
    case 'string': {
      if (schema.format) {
        const make = FORMAT_VALUES[schema.format];
        if (!make) throw new Error(`validValue: no value for format "${schema.format}" (at ${path})`);
        return make(fixtures);
      }
      const plain = 'x'.repeat(Math.max(1, schema.minLength ?? 1));
      if (schema.pattern) {
        const pattern = new RegExp(schema.pattern, 'u');
        const value = [plain, ...PATTERN_CANDIDATES].find((candidate) => pattern.test(candidate));
        if (value === undefined) throw new Error(`validValue: no value for pattern ${schema.pattern} (at ${path})`);
        return value;
      }
      return plain;
    }
    case 'integer':
    case 'number': {
      const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      return Math.min(Math.max(1, low), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/** The JSON body schema of an operation, if it takes one. */
export const jsonBodySchema = (operation: Operation): ValidInputSchema | undefined =>
  operation.requestBody?.content['application/json']?.schema as ValidInputSchema | undefined;
