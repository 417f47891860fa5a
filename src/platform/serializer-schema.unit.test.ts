import { Type } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { Nullable, Uuid } from './schemas.js';
import { serializerSchema } from './serializer-schema.js';

const Record = Type.Object({
  id: Uuid,
  name: Nullable(Type.String()),
  owner: Nullable(Uuid),
  count: Nullable(Type.Integer()),
  flag: Nullable(Type.Boolean()),
  tags: Nullable(Type.Array(Type.String())),
  nested: Type.Array(Type.Object({ at: Nullable(Type.Number()) })),
  either: Type.Union([Type.String(), Type.Number()]),
});

describe('serializerSchema', () => {
  it('writes each plain nullable union as a type list, at any depth, and leaves the input as it was', () => {
    const before = JSON.stringify(Record);
    const rewritten = serializerSchema(Record) as unknown as { properties: Record<string, Record<string, unknown>> };
    expect(rewritten.properties.name).toEqual({ type: ['string', 'null'] });
    expect(rewritten.properties.owner).toEqual({ type: ['string', 'null'], format: 'uuid' });
    expect(rewritten.properties.count).toEqual({ type: ['integer', 'null'] });
    expect(rewritten.properties.tags).toEqual({ type: ['array', 'null'], items: { type: 'string' } });
    expect(JSON.stringify(rewritten.properties.nested)).toContain('"type":["number","null"]');
    expect(rewritten.properties.either).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(JSON.stringify(Record)).toBe(before);
  });

  it('keeps the unions it cannot write as a type list', () => {
    const kept = [
      { anyOf: [{ $ref: 'Other' }, { type: 'null' }] },
      { anyOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { type: 'null' }] },
      { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'a sibling keyword' },
      { anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'number' }] },
    ];
    for (const schema of kept) expect(serializerSchema(schema)).toEqual(schema);
  });

  it('serializes what the anyOf did, and still refuses a value of another type', () => {
    const serialize = fastJson(serializerSchema(Record) as object);
    const value = {
      id: '7d4e8a90-1234-4abc-8def-0123456789ab',
      name: null,
      owner: '0b9c2f0e-5d1a-4c3e-9f7a-1b2c3d4e5f60',
      count: 3,
      flag: false,
      tags: ['a'],
      nested: [{ at: 1.5 }, { at: null }],
      either: 2,
    };
    expect(JSON.parse(serialize(value))).toEqual(value);
    expect(serialize(value)).toBe(fastJson(Record)(value));
    expect(() => serialize({ ...value, flag: 'yes' })).toThrow(/does not match schema definition/);
    expect(() => serialize({ ...value, count: 'many' })).toThrow(/does not match schema definition/);
  });
});
