// Words and word-prefix queries of full-text search, shared by every record with a `search_tsv` of its own
// lexemes (contacts, deals): lexemes are stored with array_to_tsvector (no parsing, no stemming) and matched
// by prefix, so "lov" finds "Lovelace" on both PostgreSQL and PGlite.

export const foldAccents = (text: string) => text.normalize('NFKD').replace(/\p{M}+/gu, '');

/** Letters and digits of text, lower-cased, without accents: the words of search. */
export function words(text: string): string[] {
  return foldAccents(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map((w) => w.slice(0, 100));
}

/** The distinct words of several texts (nulls skipped): the lexemes of a record. */
export function lexemesOf(texts: readonly (string | null | undefined)[]): string[] {
  const lexemes = new Set<string>();
  for (const text of texts) if (text) for (const w of words(text)) lexemes.add(w);
  return [...lexemes];
}

/**
 * The words of `q`, each to match as a prefix. Text that looks like a phone number ("(214) 555-01", "+1 214") is
 * one run of digits. Empty when q has no words.
 */
export function prefixTerms(q: string): string[] {
  const trimmed = q.trim();
  const digits = trimmed.replace(/\D/g, '');
  return /^[\d\s()+.-]+$/.test(trimmed) && digits.length >= 3 ? [digits] : words(trimmed).slice(0, 20);
}

/**
 * The tsquery text of `q`: every word must match as a prefix. Text that looks like a phone number
 * ("(214) 555-01", "+1 214") is one run of digits. Words are letters and digits only, so the text needs no
 * quoting beyond the quotes around each. null when q has no words.
 */
export function prefixQuery(q: string): string | null {
  const terms = prefixTerms(q);
  if (terms.length === 0) return null;
  return terms.map((t) => `'${t}':*`).join(' & ');
}
