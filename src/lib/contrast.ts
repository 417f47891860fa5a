// Text contrast by WCAG 2.x (relative luminance, contrast ratio): the public pages take their colours from a brand's
// palette, which nobody checked for legibility, so every text colour is tested against its background and replaced
// by black or white when it fails AA (4.5:1 for body text).

/** WCAG 2.x AA for normal text. */
export const AA_NORMAL_TEXT = 4.5;

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** `#abc`, `#abcd`, `#aabbcc` or `#aabbccdd` → [r, g, b] (0–255); null for anything else. Alpha is ignored. */
export function parseHexColor(text: string): [number, number, number] | null {
  if (!HEX.test(text)) return null;
  const digits = text.slice(1);
  const short = digits.length <= 4;
  const channel = (i: number) =>
    short ? parseInt(digits[i]! + digits[i]!, 16) : parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return [channel(0), channel(1), channel(2)];
}

/** Relative luminance (WCAG 2.x), 0 (black) to 1 (white). */
export function relativeLuminance([r, g, b]: [number, number, number]): number {
  const linear = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The contrast ratio of two colours, 1 to 21; null when either is not a hex colour. */
export function contrastRatio(a: string, b: string): number | null {
  const left = parseHexColor(a);
  const right = parseHexColor(b);
  if (!left || !right) return null;
  const [light, dark] = [relativeLuminance(left), relativeLuminance(right)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Black or white, whichever reads better on `background` (a hex colour). */
export function blackOrWhiteOn(background: string): '#000000' | '#ffffff' {
  const onBlack = contrastRatio('#000000', background) ?? 21;
  const onWhite = contrastRatio('#ffffff', background) ?? 21;
  return onBlack >= onWhite ? '#000000' : '#ffffff';
}

/**
 * The colour to draw text in on `background`: `wanted` when it is a hex colour that meets `minimum` against it, else
 * black or white, whichever reads better. `background` must be a hex colour.
 */
export function legibleTextColor(wanted: string | undefined, background: string, minimum = AA_NORMAL_TEXT): string {
  if (wanted !== undefined) {
    const ratio = contrastRatio(wanted, background);
    if (ratio !== null && ratio >= minimum) return wanted;
  }
  return blackOrWhiteOn(background);
}

/** `a` mixed with `b`, `weight` of `a` (0–1), as `#rrggbb`: a muted text or a hairline from two palette colours. */
export function mixColors(a: string, b: string, weight: number): string {
  const left = parseHexColor(a) ?? [0, 0, 0];
  const right = parseHexColor(b) ?? [255, 255, 255];
  const channel = (i: number) =>
    Math.round(left[i]! * weight + right[i]! * (1 - weight))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}
