// Columns computed from a contact's fields on every write (never stored stale): display_name, sort_field,
// email_keys, next_touch, and the lexemes of full-text search. Also the text-search query of `GET /contacts?q=`.
import { emailKey, type ContactFields } from './contacts.input.js';

export const NAMELESS = 'Guest';

/** Names → marketing name → nickname → primary email → primary phone → company → "Guest". */
export function displayNameOf(c: Pick<ContactFields, 'first_name' | 'last_name' | 'marketing_name' | 'nickname' | 'emails' | 'phone_numbers' | 'company'>): string {
  const names = [c.first_name, c.last_name].filter(Boolean).join(' ');
  return names || c.marketing_name || c.nickname || c.emails[0] || c.phone_numbers[0] || c.company || NAMELESS;
}

export const partnerNameOf = (c: Pick<ContactFields, 'partner_first_name' | 'partner_last_name'>): string | null =>
  [c.partner_first_name, c.partner_last_name].filter(Boolean).join(' ') || null;

const foldAccents = (text: string) => text.normalize('NFKD').replace(/\p{M}+/gu, '');

/** The key of +display_name order: the display name lower-cased without accents (compared byte-wise, collate "C"), cut to fit an index entry. */
export const sortFieldOf = (displayName: string): string => foldAccents(displayName).toLowerCase().slice(0, 300);


export function nextTouchOf(c: Pick<ContactFields, 'last_touch' | 'touch_freq'>): Date | null {
  if (!c.last_touch || !c.touch_freq) return null;
  return new Date(c.last_touch.getTime() + c.touch_freq * 86_400_000);
}

/** Letters and digits of text, lower-cased, without accents: the words of search. */
export function words(text: string): string[] {
  return foldAccents(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map((w) => w.slice(0, 100));
}

/** Digits of a phone number as people type its start: with the country code and without. */
function phoneWords(e164: string): string[] {
  const digits = e164.replace(/\D/g, '');
  const national = e164.startsWith('+1') ? digits.slice(1) : null;
  return national ? [digits, national] : [digits];
}

/** Lexemes of a contact for `search_tsv` (array_to_tsvector: no parsing, no stemming). */
export function searchLexemes(c: ContactFields): string[] {
  const texts = [c.first_name, c.middle_name, c.last_name, c.nickname, c.marketing_name, c.partner_first_name, c.partner_last_name, c.company, ...c.emails];
  const lexemes = new Set<string>();
  for (const text of texts) if (text) for (const w of words(text)) lexemes.add(w);
  for (const phone of c.phone_numbers) for (const w of phoneWords(phone)) lexemes.add(w);
  return [...lexemes];
}

export function emailKeysOf(c: Pick<ContactFields, 'emails'>): string[] {
  return c.emails.map(emailKey);
}

/**
 * The tsquery text of `q`: every word must match as a prefix. Text that looks like a phone number
 * ("(214) 555-01", "+1 214") is one run of digits. Words are letters and digits only, so the text needs no
 * quoting beyond the quotes around each. null when q has no words.
 */
export function prefixQuery(q: string): string | null {
  const trimmed = q.trim();
  const digits = trimmed.replace(/\D/g, '');
  const terms = /^[\d\s()+.-]+$/.test(trimmed) && digits.length >= 3 ? [digits] : words(trimmed).slice(0, 20);
  if (terms.length === 0) return null;
  return terms.map((t) => `'${t}':*`).join(' & ');
}
