// A brand's marketing palette (decisions §19) → the colours, logo and locale of a public page. Every text colour is
// checked against the background it sits on (WCAG AA, lib/contrast.ts) and replaced by black or white when it fails:
// a palette is a brand's choice, nobody checked it for legibility. Without a brand the page is neutral.
import { legibleTextColor, mixColors, parseHexColor } from '../../lib/contrast.js';
import { isValidTimeZone } from '../../lib/time-zone-name.js';

export interface PageColors {
  background: string;
  text: string;
  /** Secondary text (labels, dates): a blend of text and background that still passes AA, else the text colour. */
  muted: string;
  /** Hairlines and card borders (decorative). */
  line: string;
  /** Buttons and the price band. */
  accent: string;
  accentText: string;
  /** The accent as text on the background (links, the price): the accent when it passes AA there. */
  link: string;
}

export interface Theme {
  /** The brand the page speaks for; null = neutral. */
  brand: { id: string; name: string } | null;
  colors: PageColors;
  /** An http(s) logo for a light background (`container-logo-wide`, else `container-logo-square`). */
  logoUrl: string | null;
  /** BCP 47, from the palette's `locale` (en-US when unset or malformed): dates, prices and numbers. */
  locale: string;
  /** IANA zone from the palette's `time-zone`, when set and known. */
  timeZone: string | null;
  /** The brand's contact line from the palette (`address.full`, `phone_number`). */
  contact: { address: string | null; phone: string | null };
}

export interface BrandPalette {
  id: string;
  name: string;
  palette: Record<string, unknown>;
}

export const DEFAULT_LOCALE = 'en-US';
const NEUTRAL = { background: '#ffffff', text: '#1f2933', accent: '#2453d6', accentText: '#ffffff' };

const text = (palette: Record<string, unknown>, key: string): string | undefined => {
  const value = palette[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};
const color = (palette: Record<string, unknown>, key: string): string | undefined => {
  const value = text(palette, key);
  return value && parseHexColor(value) ? value : undefined;
};
const httpUrl = (value: string | undefined): string | null => (value && /^https?:\/\//i.test(value) ? value : null);

/** A well-formed BCP 47 tag, canonicalized; en-US otherwise. */
export function localeOf(tag: string | undefined): string {
  if (!tag) return DEFAULT_LOCALE;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

/** Colours where each text colour passes AA on what it is drawn on. */
export function pageColors(wanted: { background?: string; text?: string; accent?: string; accentText?: string }) {
  const background = wanted.background ?? NEUTRAL.background;
  const textColor = legibleTextColor(wanted.text ?? NEUTRAL.text, background);
  const accent = wanted.accent ?? NEUTRAL.accent;
  const blended = mixColors(textColor, background, 0.78);
  return {
    background,
    text: textColor,
    muted: legibleTextColor(blended, background) === blended ? blended : textColor,
    line: mixColors(textColor, background, 0.16),
    accent,
    accentText: legibleTextColor(wanted.accentText ?? NEUTRAL.accentText, accent),
    link: legibleTextColor(accent, background),
  } satisfies PageColors;
}

export function themeOf(brand: BrandPalette | null): Theme {
  const palette = brand?.palette ?? {};
  const background = color(palette, 'body-bg-color');
  const body = color(palette, 'body-text-color');
  const accent = color(palette, 'button-bg-color');
  const accentText = color(palette, 'button-text-color');
  const zone = text(palette, 'time-zone');
  const address = palette.address;
  const fullAddress =
    address && typeof address === 'object' && typeof (address as Record<string, unknown>).full === 'string'
      ? ((address as Record<string, string>).full ?? null)
      : null;
  return {
    brand: brand ? { id: brand.id, name: brand.name } : null,
    colors: pageColors({
      ...(background ? { background } : {}),
      ...(body ? { text: body } : {}),
      ...(accent ? { accent } : {}),
      ...(accentText ? { accentText } : {}),
    }),
    logoUrl: httpUrl(text(palette, 'container-logo-wide')) ?? httpUrl(text(palette, 'container-logo-square')),
    locale: localeOf(text(palette, 'locale')),
    timeZone: zone && isValidTimeZone(zone) ? zone : null,
    contact: { address: fullAddress || null, phone: text(palette, 'phone_number') ?? null },
  };
}
