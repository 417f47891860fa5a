// Text that PostgreSQL refuses to store: U+0000 (in text and in jsonb) and lone UTF-16 surrogates (jsonb rejects
// the `\ud800` escape JSON.stringify writes for them; text columns would silently store U+FFFD instead). JSON
// bodies may carry both, so they are checked before any statement sees them.

export interface UnstorableText {
  /** Dotted path of the first offending string (`property.address.city`, `0.content`); '' for the value itself. */
  path: string;
  message: string;
}

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
const SURROGATE_MESSAGE = 'must be well-formed Unicode (it contains a lone UTF-16 surrogate)';

function problemOf(text: string): string | null {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (!text.isWellFormed()) return SURROGATE_MESSAGE;
  return null;
}

/** The key with NUL and lone surrogates shown as '?', so that the error body itself stays storable and printable. */
const printable = (key: string) =>
  [...key].map((char) => (char === '\u0000' || !char.isWellFormed() ? '?' : char)).join('');

/** The first string (value or object key) inside `value` that PostgreSQL cannot store, or null. */
export function findUnstorableText(value: unknown, path = ''): UnstorableText | null {
  if (typeof value === 'string') {
    const message = problemOf(value);
    return message ? { path, message } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  const join = (key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findUnstorableText(value[index], join(index));
      if (found) return found;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    const keyProblem = problemOf(key);
    if (keyProblem) return { path: join(printable(key)), message: `names a key that ${keyProblem}` };
    const found = findUnstorableText(inner, join(key));
    if (found) return found;
  }
  return null;
}
