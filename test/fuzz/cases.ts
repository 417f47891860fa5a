// Bad-input cases for the route fuzzer (test/fuzz/route-fuzzer.test.ts), derived from an operation of the app's
// own OpenAPI document: for each path parameter, query parameter and body field, values that a careless or
// hostile client sends. Seeded and bounded, so a run is repeatable and takes seconds per route.
import { SeededRandom } from '../../src/modules/listings/listings.random.js';

/** A JSON schema as @fastify/swagger emits it (only the keywords the generator reads). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  /** An example value (JSON Schema 2020-12 `examples`): the fuzzer mutates it field by field, nested ones too. */
  examples?: unknown[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}

export interface FuzzCase {
  label: string;
  url: string;
  /** Raw body text (sent as is) and its content type; undefined = no body. */
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** A status the answer must have (a refusal a client can rely on), or must not have (a value the route takes). */
  expectStatus?: number;
  forbidStatus?: number;
}

/** Deterministic draws (the project's seeded PRNG): the same seed draws the same cases on every run. */
export function seededRandom(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}

const MEGABYTE_STRING = 'x'.repeat(1024 * 1024);
const DEEP = '['.repeat(5000) + ']'.repeat(5000);

/** Values for a text field of a URL (already percent-encoded where needed). */
export const BAD_URL_VALUES: { label: string; value: string }[] = [
  { label: 'not a uuid', value: 'not-a-uuid' },
  { label: 'empty', value: '' },
  { label: 'NUL', value: '%00' },
  { label: 'control characters', value: '%01%07%1F' },
  { label: 'lone surrogate (CESU bytes)', value: '%ED%A0%80' },
  { label: 'invalid UTF-8', value: '%FF%FE' },
  { label: 'malformed escape', value: '%E0%A4%A' },
  { label: '2^63', value: '9223372036854775808' },
  { label: '1e20', value: '1e20' },
  { label: '1e400', value: '1e400' },
  { label: 'negative', value: '-1' },
  { label: 'NaN', value: 'NaN' },
  { label: 'Infinity', value: 'Infinity' },
  { label: 'decimal', value: '1.5' },
  { label: '10 KB', value: 'a'.repeat(10_000) },
  { label: 'traversal', value: '..%2F..%2Fetc%2Fpasswd' },
  { label: 'quote', value: '%27%22%3B--' },
];

/** Raw JSON texts (not JSON.stringify output: 2^63, 1e400 and lone surrogates must reach the parser as such). */
export const BAD_JSON_VALUES: { label: string; json: string }[] = [
  { label: 'wrong type: string', json: '"text"' },
  { label: 'wrong type: number', json: '42' },
  { label: 'wrong type: boolean', json: 'true' },
  { label: 'null', json: 'null' },
  { label: 'array for scalar', json: '["a", 1]' },
  { label: 'object for scalar', json: '{"a": {"b": 1}}' },
  { label: '2^63', json: '9223372036854775808' },
  { label: '-2^63-1', json: '-9223372036854775809' },
  { label: '1e20', json: '1e20' },
  { label: '1e400 (Infinity)', json: '1e400' },
  { label: '-1', json: '-1' },
  { label: 'fraction', json: '0.5' },
  { label: 'lone surrogate', json: '"a\\ud800b"' },
  { label: 'NUL', json: '"a\\u0000b"' },
  { label: 'control characters', json: '"\\u0001\\u001f\\u007f"' },
  { label: 'CR LF', json: '"a\\r\\nX-Injected: 1"' },
  { label: 'empty string', json: '""' },
  { label: '3 KB string', json: JSON.stringify('k'.repeat(3000)) },
  { label: '100 KB string', json: JSON.stringify('l'.repeat(100_000)) },
  { label: 'object with odd keys', json: '{"Bad Key": 1, "__proto__": {"x": 1}, "": ["x"]}' },
  { label: 'out-of-range date', json: '"10000-01-01T00:00:00Z"' },
  { label: 'year zero date', json: '"0000-01-01"' },
  { label: 'array of bad uuids', json: '["not-a-uuid", "\\u0000"]' },
  { label: 'deep nesting', json: DEEP },
];

/**
 * The characters of providers' device tokens (FCM: letters, digits, `-_:`; APNs: hex): a path segment of these
 * is what a client really sends, so the route must take it up to the length its schema states.
 */
const TOKEN_ALPHABET = 'APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx_dT9AfVbCxZmNm0:4t8W6cOZ3eXPeeU7iY';
/** The limit of a path parameter whose schema states none: every id fits (platform/path-segments.ts). */
const ID_SEGMENT_MAX = 100;

/** A path parameter that takes free text (a token, a key), not a uuid, a date or a value from a list. */
function takesFreeText(schema: JsonSchema | undefined): boolean {
  return schema?.type === 'string' && !schema.format && !schema.enum && !schema.pattern && schema.const === undefined;
}

const MALFORMED_BODIES: FuzzCase['body'][] = ['{"a":', '{', 'nul', '[1,2', '\u0000', '{"a":1}garbage'];

/** A body the schema accepts, as far as a simple generator can tell: the base every field mutation starts from. */
export function exampleOf(schema: JsonSchema | undefined, fixtures: Record<string, string>, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return exampleOf(variants.find((v) => v.type !== 'null') ?? variants[0], fixtures, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? [])
        out[name] = fixtures[name] ?? exampleOf(schema.properties?.[name], fixtures, depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'string':
      if (schema.format === 'uuid') return fixtures.uuid;
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.format === 'uri') return 'https://example.com/';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/** The value of a path parameter that names something plausible (the test's own brand, a random uuid…). */
export function goodPathValue(name: string, fixtures: Record<string, string>): string {
  return fixtures[name] ?? fixtures.uuid!;
}

/** The record types (`type` constants) in a route's 200 response, each with its required fields. */
function recordTypes(operation: Operation): { type: string; fields: string[] }[] {
  const found = new Map<string, Set<string>>();
  const walk = (schema: JsonSchema | undefined, depth: number): void => {
    if (!schema || depth > 8) return;
    // OpenAPI output spells a TypeBox literal as a one-value enum.
    const typeSchema = schema.properties?.type;
    const typeConst = typeSchema?.const ?? (typeSchema?.enum?.length === 1 ? typeSchema.enum[0] : undefined);
    if (typeof typeConst === 'string') {
      const fields = found.get(typeConst) ?? new Set<string>();
      for (const field of schema.required ?? []) fields.add(field);
      found.set(typeConst, fields);
    }
    for (const inner of Object.values(schema.properties ?? {})) walk(inner, depth + 1);
    walk(schema.items, depth + 1);
    for (const variant of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) walk(variant, depth + 1);
  };
  walk(operation.responses?.['200']?.content?.['application/json']?.schema, 0);
  return [...found].map(([type, fields]) => ({ type, fields: [...fields] }));
}

type FieldPath = (string | number)[];

/** The paths of every value inside a JSON value (the first element stands for each array), at most 300. */
function fieldPaths(value: unknown, prefix: FieldPath = [], out: FieldPath[] = []): FieldPath[] {
  if (out.length >= 300) return out;
  if (Array.isArray(value)) {
    if (value.length > 0) {
      out.push([...prefix, 0]);
      fieldPaths(value[0], [...prefix, 0], out);
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      out.push([...prefix, key]);
      fieldPaths(inner, [...prefix, key], out);
    }
  }
  return out;
}

function uniquePaths(paths: FieldPath[]): FieldPath[] {
  const seen = new Set<string>();
  return paths.filter((path) => path.length > 0 && !seen.has(JSON.stringify(path)) && seen.add(JSON.stringify(path)));
}

/**
 * The JSON text of `base` with the value at `path` replaced by raw JSON text (so that 2^63, 1e400 and lone
 * surrogates reach the server's parser as written, which JSON.stringify could not produce).
 */
function spliceJson(base: unknown, path: FieldPath, rawJson: string): string {
  const marker = '__FUZZ_VALUE__';
  type Node = Record<string | number, unknown>;
  const root = (base !== null && typeof base === 'object' ? structuredClone(base) : {}) as Node;
  let node = root;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = (next !== null && typeof next === 'object' ? next : (node[key] = {})) as Node;
  }
  node[path[path.length - 1]!] = marker;
  return JSON.stringify(root).replace(`"${marker}"`, rawJson);
}

function pathWith(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? 'x');
}

function pick<T>(random: () => number, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return out;
}

/** The case battery of one operation: at most `budget` cases, always including the structural ones. */
export function casesFor(
  path: string,
  operation: Operation,
  fixtures: Record<string, string>,
  random: () => number,
  budget = 60,
): FuzzCase[] {
  const params = operation.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const good = Object.fromEntries(pathParams.map((p) => [p.name, goodPathValue(p.name, fixtures)]));
  const baseUrl = pathWith(path, good);
  const jsonSchema = operation.requestBody?.content['application/json']?.schema;
  const baseBody = jsonSchema ? JSON.stringify(exampleOf(jsonSchema, fixtures)) : undefined;
  const withBody = (c: FuzzCase): FuzzCase =>
    baseBody !== undefined && c.body === undefined ? { ...c, body: baseBody, contentType: 'application/json' } : c;

  const structural: FuzzCase[] = [
    { label: 'plain', url: baseUrl },
    // Every required field of every record type the route answers with, omitted (decisions §1 `omit[]`).
    ...recordTypes(operation).map(({ type, fields }) => ({
      label: `omit[] every field of ${type}`,
      url: `${baseUrl}?${fields.map((f) => `omit[]=${type}.${f}`).join('&')}`,
    })),
    { label: 'oversized query string', url: `${baseUrl}?${'q='.concat('a'.repeat(60_000))}` },
    { label: 'query NUL key', url: `${baseUrl}?%00=%00` },
    { label: 'oversized header value', url: baseUrl, headers: { 'x-rechat-brand': 'b'.repeat(16_000) } },
    { label: 'foreign brand header', url: baseUrl, headers: { 'x-rechat-brand': fixtures.foreignBrand! } },
    { label: 'malformed brand header', url: baseUrl, headers: { 'x-rechat-brand': 'not-a-uuid' } },
    // Issue 34 row 1: a parameter as long as its schema allows (an FCM token is ~163 characters, an APNs one up
    // to 400) is taken, not refused as a segment too long.
    ...pathParams
      .filter((param) => takesFreeText(param.schema))
      .map((param) => {
        const length = Math.min(param.schema?.maxLength ?? ID_SEGMENT_MAX, 4096);
        const value = TOKEN_ALPHABET.repeat(Math.ceil(length / TOKEN_ALPHABET.length)).slice(0, length);
        return {
          label: `path ${param.name} = as long as its schema allows (${length})`,
          url: pathWith(path, { ...good, [param.name]: value }),
          forbidStatus: 414,
        };
      }),
  ].map(withBody);
  const bodyTypes = Object.keys(operation.requestBody?.content ?? {});
  if (baseBody !== undefined && !bodyTypes.includes('application/x-www-form-urlencoded')) {
    // Issue 34 row 3: a JSON body under curl's default type, or under none, is refused as such, not read as empty.
    structural.push(
      {
        label: 'JSON body sent as a form (curl --data)',
        url: baseUrl,
        body: baseBody,
        contentType: 'application/x-www-form-urlencoded',
        expectStatus: 415,
      },
      { label: 'JSON body without a content type', url: baseUrl, body: baseBody, expectStatus: 415 },
    );
  }
  if (baseBody !== undefined) {
    structural.push(
      ...MALFORMED_BODIES.map((body) => ({
        label: `malformed JSON ${JSON.stringify(body)}`,
        url: baseUrl,
        body,
        contentType: 'application/json',
      })),
      { label: 'wrong content type', url: baseUrl, body: 'a=1', contentType: 'text/plain' },
      { label: 'xml content type', url: baseUrl, body: '<a/>', contentType: 'application/xml' },
      { label: 'empty JSON body', url: baseUrl, body: '', contentType: 'application/json' },
      ...BAD_JSON_VALUES.map((v) => ({
        label: `whole body ${v.label}`,
        url: baseUrl,
        body: v.json,
        contentType: 'application/json',
      })),
      {
        label: '1 MB string body',
        url: baseUrl,
        body: JSON.stringify({ value: MEGABYTE_STRING }),
        contentType: 'application/json',
      },
    );
  }

  const mutations: FuzzCase[] = [];
  for (const param of pathParams) {
    for (const bad of BAD_URL_VALUES)
      mutations.push(
        withBody({
          label: `path ${param.name} = ${bad.label}`,
          url: pathWith(path, { ...good, [param.name]: bad.value }),
        }),
      );
    mutations.push(
      withBody({
        label: `path ${param.name} = 2000 characters`,
        url: pathWith(path, { ...good, [param.name]: 'a'.repeat(2000) }),
      }),
    );
  }
  for (const param of queryParams) {
    for (const bad of BAD_URL_VALUES)
      mutations.push(
        withBody({ label: `query ${param.name} = ${bad.label}`, url: `${baseUrl}?${param.name}=${bad.value}` }),
      );
    mutations.push(withBody({ label: `query ${param.name} nested`, url: `${baseUrl}?${param.name}[a][b]=1` }));
    mutations.push(
      withBody({
        label: `query ${param.name} repeated`,
        url: `${baseUrl}?${param.name}=1&${param.name}=2&${param.name}[]=3`,
      }),
    );
  }
  if (jsonSchema && baseBody !== undefined) {
    const base = JSON.parse(baseBody) as unknown;
    // Every field of the base body (nested ones too), plus the schema's optional top-level fields it lacks.
    const optional = Object.keys(jsonSchema.properties ?? {}).map((name) => [name]);
    const paths = uniquePaths([...fieldPaths(base), ...optional]);
    for (const fieldPath of paths) {
      for (const bad of BAD_JSON_VALUES) {
        mutations.push({
          label: `body ${fieldPath.join('.')} = ${bad.label}`,
          url: baseUrl,
          body: spliceJson(base, fieldPath, bad.json),
          contentType: 'application/json',
        });
      }
    }
  }
  return [...structural, ...pick(random, mutations, Math.max(0, budget - structural.length))];
}
