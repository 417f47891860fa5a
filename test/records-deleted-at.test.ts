// Spec §1 convention 6: deletion is soft, and records carry `deleted_at` (null until deleted). Read from the
// response schemas of the OpenAPI document, which the serializer writes every answer by, so a record type added
// later is checked without editing this file: wherever a record of a type appears (alone, in a list, embedded
// as an association), it declares `deleted_at` as a required, nullable field.
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app.js';

/** Record types that carry no `deleted_at`, each with its reason. Any other record type must declare it. */
const WITHOUT_DELETED_AT: Record<string, string> = {
  brand: 'no route deletes a brand; the public profile names only the fields of decisions §19',
  brand_trigger: 'no route deletes one: PUT replaces it',
  contact_activity: 'a timeline entry: no route deletes one',
  deal_role: 'a part of its deal (stored in the deal row); DELETE …/roles removes it from the deal',
  showing: 'no route deletes a showing',
  webhook_delivery: 'a delivery log entry: no route deletes one',
};

interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** A record schema: an object with an `id` and a `type` of one literal value; its type name, else null. */
function recordType(schema: JsonSchema): string | null {
  const type = schema.properties?.type;
  if (!type || !schema.properties?.id) return null;
  const literal = type.const ?? (type.enum?.length === 1 ? type.enum[0] : undefined);
  return typeof literal === 'string' ? literal : null;
}

/** Every record schema inside `value`, with where it was found. */
function collectRecords(value: unknown, where: string, out: { type: string; schema: JsonSchema; where: string }[]) {
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectRecords(item, where, out);
    return;
  }
  const type = recordType(value as JsonSchema);
  if (type) out.push({ type, schema: value as JsonSchema, where });
  for (const inner of Object.values(value)) collectRecords(inner, where, out);
}

const allowsNull = (schema: JsonSchema): boolean =>
  schema.type === 'null' ||
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  (schema.anyOf ?? []).some(allowsNull);

describe('deleted_at on every record (spec §1 convention 6)', () => {
  const t = useTestApp();

  it('is a required, nullable field of every record type in every response that carries one', () => {
    const document = t.app.swagger() as unknown as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    const records: { type: string; schema: JsonSchema; where: string }[] = [];
    for (const [path, operations] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(operations))
        for (const [status, response] of Object.entries(operation.responses ?? {}))
          if (Number(status) < 300) collectRecords(response, `${method.toUpperCase()} ${path}`, records);

    const types = new Set(records.map((record) => record.type));
    expect(types).toContain('deal');
    for (const type of Object.keys(WITHOUT_DELETED_AT))
      expect(types, `${type} is listed but never answered`).toContain(type);
    for (const { type, schema, where } of records) {
      const deletedAt = schema.properties?.deleted_at;
      if (type in WITHOUT_DELETED_AT) {
        expect(deletedAt, `${type} in ${where} declares deleted_at: take it off WITHOUT_DELETED_AT`).toBeUndefined();
        continue;
      }
      expect(deletedAt, `${type} in ${where} has no deleted_at`).toBeDefined();
      expect(schema.required ?? [], `${type} in ${where}: deleted_at is required`).toContain('deleted_at');
      expect(allowsNull(deletedAt!), `${type} in ${where}: deleted_at is nullable`).toBe(true);
    }
  });
});
