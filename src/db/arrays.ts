// Large arrays sent as one text parameter in PostgreSQL's array syntax and cast in the statement (`${…}::uuid[]`).
// The driver serializes a JS array itself, quoting every element and escaping it with two regular expressions; a
// match job sends ~100,000 elements (ids, bind values), and that was ~25 ms of its CPU. Here an element that needs
// no quotes (ids, numbers: letters, digits, `.:+-_`) is copied as is; any other is quoted and escaped.

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
