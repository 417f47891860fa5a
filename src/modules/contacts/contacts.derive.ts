// Columns computed from a contact's fields on every write (never stored stale): display_name, sort_field,
// email_keys, next_touch, and the lexemes of full-text search (words and the `q` query: lib/search-words.ts).
import { foldAccents, words } from '../../lib/search-words.js';
import { emailKey } from '../../lib/contact-values.js';
import type { ContactFields } from './contacts.input.js';

export const NAMELESS = 'Guest';

/** Names → marketing name → nickname → primary email → primary phone → company → "Guest". */
export function displayNameOf(
  c: Pick<
    ContactFields,
    'first_name' | 'last_name' | 'marketing_name' | 'nickname' | 'emails' | 'phone_numbers' | 'company'
  >,
): string {
  const names = [c.first_name, c.last_name].filter(Boolean).join(' ');
  return names || c.marketing_name || c.nickname || c.emails[0] || c.phone_numbers[0] || c.company || NAMELESS;
}

export const partnerNameOf = (c: Pick<ContactFields, 'partner_first_name' | 'partner_last_name'>): string | null =>
  [c.partner_first_name, c.partner_last_name].filter(Boolean).join(' ') || null;

/** The key of +display_name order: the display name lower-cased without accents (compared byte-wise, collate "C"), cut to fit an index entry. */
export const sortFieldOf = (displayName: string): string => foldAccents(displayName).toLowerCase().slice(0, 300);

export function nextTouchOf(c: Pick<ContactFields, 'last_touch' | 'touch_freq'>): Date | null {
  if (!c.last_touch || !c.touch_freq) return null;
  return new Date(c.last_touch.getTime() + c.touch_freq * 86_400_000);
}

/** Digits of a phone number as people type its start: with the country code and without. */
function phoneWords(e164: string): string[] {
  const digits = e164.replace(/\D/g, '');
  const national = e164.startsWith('+1') ? digits.slice(1) : null;
  return national ? [digits, national] : [digits];
}

/** Lexemes of a contact for `search_tsv` (array_to_tsvector: no parsing, no stemming). */
export function searchLexemes(c: ContactFields): string[] {
  const texts = [
    c.first_name,
    c.middle_name,
    c.last_name,
    c.nickname,
    c.marketing_name,
    c.partner_first_name,
    c.partner_last_name,
    c.company,
    ...c.emails,
  ];
  const lexemes = new Set<string>();
  for (const text of texts) if (text) for (const w of words(text)) lexemes.add(w);
  for (const phone of c.phone_numbers) for (const w of phoneWords(phone)) lexemes.add(w);
  return [...lexemes];
}

export function emailKeysOf(c: Pick<ContactFields, 'emails'>): string[] {
  return c.emails.map(emailKey);
}
