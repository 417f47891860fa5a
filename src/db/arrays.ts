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

/** A value as the text of a PostgreSQL literal of its column's type (null stays null). */
function literalText(value: unknown, type: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (type === 'json' || type === 'jsonb') return JSON.stringify(value);
  if (Array.isArray(value)) return arrayLiteral(value.map((element) => literalText(element, type.slice(0, -2))));
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Rows as one array parameter per column, for `insert … select … from ${unnestRows(…)}`: the rows travel as
 * `columns.length` parameters whatever their number (a multi-row VALUES binds one per cell: 13,000 for 500
 * notifications, each serialized and parsed on its own). `columns` maps each column to its PostgreSQL type; the
 * rows expose them as `r.<column>` already of that type (an array-typed column travels as the text of its array,
 * cast per row, since PostgreSQL arrays cannot hold arrays of varying length).
 */
export function unnestRows<Row extends object>(rows: readonly Row[], columns: { readonly [K in keyof Row & string]?: string }): { select: RawBuilder<unknown>; from: RawBuilder<unknown> } {
  const entries = Object.entries(columns as Record<string, string>);
  const arrays = entries.map(([name, type]) => {
    const literal = arrayLiteral(rows.map((row) => literalText((row as Record<string, unknown>)[name], type)));
    return type.endsWith('[]') ? sql`${literal}::text[]` : sql`${literal}::${sql.raw(type)}[]`;
  });
  const names = entries.map(([name]) => sql.id(name));
  return {
    select: sql.join(entries.map(([name, type]) => (type.endsWith('[]') ? sql`r.${sql.id(name)}::${sql.raw(type)}` : sql`r.${sql.id(name)}`))),
    from: sql`unnest(${sql.join(arrays)}) as r(${sql.join(names)})`,
  };
}
