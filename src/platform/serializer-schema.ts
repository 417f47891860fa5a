// The schema a response serializer is compiled from. fast-json-stringify writes a `T | null` union (`anyOf`, as
// TypeBox and `Nullable` make it) by running an Ajv validator per branch on every value: for the ~30 nullable
// fields of the user record that was most of what serializing GET /users/self cost. The same field written as
// `type: [T, 'null']` is serialized by `typeof` tests. What the serializer stops checking is a string's `format`
// (a uuid); the type is still checked, and a value of another type still fails the response. The values it writes
// come from typed columns through records TypeScript checks against these same schemas (Static<>), so the format
// check found nothing the compiler does not (docs/adr/0042). Validators and the OpenAPI document keep the anyOf.
type Schema = Record<string | symbol, unknown>;

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null;
const LIST_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** `anyOf: [S, {type: 'null'}]` (either order) with S of one plain type, as `{...S, type: [S.type, 'null']}`. */
function nullableUnion(schema: Schema): Schema | null {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return null;
  const others = Object.keys(schema).filter((key) => key !== 'anyOf');
  if (others.length > 0) return null;
  const nullAt = branches.findIndex((branch) => isObject(branch) && branch.type === 'null');
  if (nullAt === -1) return null;
  const value: unknown = branches[1 - nullAt];
  if (!isObject(value) || typeof value.type !== 'string' || !LIST_TYPES.has(value.type)) return null;
  if (['anyOf', 'oneOf', 'allOf', 'if', '$ref', 'not'].some((key) => key in value)) return null;
  return { ...value, type: [value.type, 'null'] };
}

/** A copy of `schema` with each plain nullable union written as a type list (the input is left as it is). */
export function serializerSchema<T>(schema: T): T {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isObject(node)) return node;
    const source = nullableUnion(node) ?? node;
    const copy: Schema = {};
    for (const key of Object.keys(source)) copy[key] = rewrite(source[key]);
    return copy;
  };
  return rewrite(schema) as T;
}
