// The marketing palette: a brand's design system as existing clients and print templates read it
// (`settings.marketing_palette`, decisions §19): colours, logos, the brand's address and phone number, and
// other display strings. A brand stores only its own keys; a key it does not set comes from its nearest
// ancestor that sets it.
import { errors, type ErrorAttributes } from '../../errors.js';

export type Palette = Record<string, unknown>;

const KEY = /^[a-z][a-z0-9_-]{0,63}$/;
const HEX_COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const ADDRESS_FIELDS = ['full', 'line1', 'line2', 'city', 'state', 'postcode', 'country'] as const;
const MAX_KEYS = 200;

/** A key whose value is a colour: `button-bg-color`, `body-text-color`, … */
const isColorKey = (key: string) => key.endsWith('-color');
/** A key whose value is an image or link address: `container-logo-wide`, `inverted-logo-square`, `*-url`, … */
const isUrlKey = (key: string) => key.includes('logo') || key.endsWith('-url') || key.endsWith('-image');

/** Validates a whole palette (keys and values); throws one 400 naming every bad key. Returns it unchanged. */
export function validatePalette(input: unknown): Palette {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw errors.invalidField('marketing_palette', 'must be an object of palette keys');
  const problems: ErrorAttributes = {};
  const entries = Object.entries(input as Palette);
  if (entries.length > MAX_KEYS) problems.marketing_palette = [`has more than ${MAX_KEYS} keys`];
  for (const [key, value] of entries) {
    const problem = valueProblem(key, value);
    if (problem)
      problems[KEY.test(key) ? key : 'marketing_palette'] = [
        KEY.test(key) ? problem : `has a key "${key.slice(0, 64)}" that is not lower-case letters, digits, - and _`,
      ];
  }
  const [field, messages] = Object.entries(problems)[0] ?? [];
  if (field && messages) throw errors.validation(`${field} ${messages[0]}`, problems);
  return input as Palette;
}

function valueProblem(key: string, value: unknown): string | null {
  if (!KEY.test(key)) return 'bad key';
  if (key === 'address') return addressProblem(value);
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > 2000) return 'must be at most 2000 characters';
  if (isColorKey(key) && !HEX_COLOR.test(value)) return 'must be a hex colour such as #1a73e8';
  if (isUrlKey(key) && !isHttpUrl(value)) return 'must be an http(s) URL';
  return null;
}

function addressProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'must be an object {full, line1, city, state, postcode}';
  for (const [field, text] of Object.entries(value)) {
    if (!(ADDRESS_FIELDS as readonly string[]).includes(field))
      return `has an unknown field "${field.slice(0, 64)}" (${ADDRESS_FIELDS.join(', ')})`;
    if (typeof text !== 'string' || text.length > 500) return `${field} must be a string of at most 500 characters`;
  }
  return null;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** The palette a brand shows: its ancestors' keys overridden by nearer ones. `chain` = the brand first, root last. */
export function effectivePalette(chain: readonly { marketing_palette: Palette }[]): Palette {
  return Object.assign({}, ...[...chain].reverse().map((brand) => brand.marketing_palette));
}
