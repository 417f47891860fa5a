// Large arrays sent as one text parameter in PostgreSQL's array syntax and cast in the statement (`${…}::uuid[]`).
// The driver serializes a JS array itself, quoting every element and escaping it with two regular expressions; a
// match job sends ~100,000 elements (ids, bind values), and that was ~25 ms of its CPU. Here an element that needs
// no quotes (ids, numbers: letters, digits, `.:+-_`) is copied as is; any other is quoted and escaped.
import { sql, type RawBuilder } from 'kysely';

const BARE = /^[\w.:+-]+$/;

/** The array literal of these texts (null → NULL). */
export function arrayLiteral(values: readonly (string | null)[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) literal += ',';
    if (value === null || value === undefined) literal += 'NULL';
    // A bare NULL would be the null value: that one text is quoted.
    else if (BARE.test(value) && value.toUpperCase() !== 'NULL') literal += value;
    else literal += `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  }
  return `${literal}}`;
}

/**
 * A bind value as the text the pg driver sends for it (dates in ISO form, arrays as array literals, other objects
 * as JSON), which PostgreSQL casts back by the parameter's type. Saved-search match forms store their values in
 * this form (matching.confirm.ts), so its output must not change.
 */
export function parameterText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return `{${value
      .map((item) => {
        const text = parameterText(item);
        return text === null ? 'NULL' : Array.isArray(item) ? text : `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
      })
      .join(',')}}`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const isArrayType = (type: string) => type.endsWith('[]');

/** Columns of texts, one array parameter each, with the PostgreSQL type of each column. */
export interface TextColumn {
  name: string;
  type: string;
  texts: readonly (string | null)[];
}

/**
 * `unnest(…) as <alias>(…)` over one array parameter per column, and each column as `<alias>.<name>` of its type:
 * an array-typed column travels as the text of its arrays (PostgreSQL arrays cannot hold arrays of varying length)
 * and is cast per row. The alias must not be one that SQL placed inside its scope uses for something else.
 */
export function unnestColumns(
  columns: readonly TextColumn[],
  alias = 'r',
): { from: RawBuilder<unknown>; column: (name: string) => RawBuilder<unknown>; select: RawBuilder<unknown> } {
  const types = new Map(columns.map((c) => [c.name, c.type]));
  const column = (name: string) => {
    const type = types.get(name)!;
    return isArrayType(type) ? sql`${sql.id(alias, name)}::${sql.raw(type)}` : sql`${sql.id(alias, name)}`;
  };
  const arrays = columns.map((c) => sql`${arrayLiteral(c.texts)}::${sql.raw(isArrayType(c.type) ? 'text' : c.type)}[]`);
  return {
    from: sql`unnest(${sql.join(arrays)}) as ${sql.id(alias)}(${sql.join(columns.map((c) => sql.id(c.name)))})`,
    column,
    select: sql.join(columns.map((c) => column(c.name))),
  };
}

/**
 * Rows as one array parameter per column, for `insert … select ${select} from ${from}`: the rows travel as
 * `columns.length` parameters whatever their number (a multi-row VALUES binds one per cell: 13,000 for 500
 * notifications, each serialized and parsed on its own). `columns` maps each column to its PostgreSQL type.
 * A column holding one value in every row (all null, say) travels as that one value, not as an array of copies
 * (a notification has 24 columns, most of them the same in every row of a batch: building their arrays was a
 * third of writing 10,000 alert notifications). `column(name)` is each column's expression, array or not.
 */
export function unnestRows<Row extends object>(
  rows: readonly Row[],
  columns: { readonly [K in keyof Row & string]?: string },
): {
  select: RawBuilder<unknown>;
  from: RawBuilder<unknown>;
  column: (name: keyof Row & string) => RawBuilder<unknown>;
} {
  const json = (type: string) => type === 'json' || type === 'jsonb';
  const textOf = (type: string, value: unknown) =>
    // A JSON column's array is JSON, not an array literal.
    json(type) && value !== null && value !== undefined && typeof value !== 'string'
      ? JSON.stringify(value)
      : parameterText(value);
  const entries = Object.entries(columns as Record<string, string>);
  const constants = new Map<string, RawBuilder<unknown>>();
  const arrays: TextColumn[] = [];
  for (const [index, [name, type]] of entries.entries()) {
    const values = rows.map((row) => (row as Record<string, unknown>)[name]);
    // The first column always travels as an array: it gives the unnest its number of rows.
    const first = values[0] ?? null;
    const same = index > 0 && rows.length > 1 && values.every((value) => (value ?? null) === first);
    const texts = same ? [] : values.map((value) => textOf(type, value));
    if (same || (index > 0 && rows.length > 1 && texts.every((text) => text === texts[0]))) {
      const text = same ? textOf(type, first) : texts[0]!;
      constants.set(name, sql`${text}::${sql.raw(type)}`);
    } else arrays.push({ name, type, texts });
  }
  const unnested = unnestColumns(arrays);
  const column = (name: string) => constants.get(name) ?? unnested.column(name);
  return { select: sql.join(entries.map(([name]) => column(name))), from: unnested.from, column };
}
