// What a boundary is before it is stored, and the pure preparation every writer shares (shipped data, imports):
// label point, normalized search text, rings.
import { polylabel, ringArea } from '../../lib/polylabel.js';
import { closeRings, polygonsOf, ringsOf, type BoundaryGeometry, type RingRow } from './boundaries.geometry.js';
import type { BoundaryType } from './boundaries.types.js';

export { BOUNDARY_TYPES, type BoundaryType } from './boundaries.types.js';

export interface BoundaryInput {
  externalId: string;
  boundaryType: BoundaryType;
  title: string;
  /** ISO 3166-1 alpha-2 */
  country: string | null;
  /** state or province name */
  state: string | null;
  subtitle: string;
  /** alternative names people type, shown in the API's `aliases` string */
  aliases: string[];
  /** codes matched by q but not shown: postal, ISO, FIPS */
  codes: string[];
  population: number | null;
  geometry: BoundaryGeometry;
}

export interface PreparedBoundary {
  externalId: string;
  boundaryType: BoundaryType;
  title: string;
  country: string | null;
  state: string | null;
  subtitle: string;
  aliases: string;
  codes: string[];
  population: number | null;
  geometry: BoundaryGeometry;
  /** [lon, lat] */
  center: [number, number];
  searchKey: string;
  /** normalized text per tsvector weight */
  searchA: string;
  searchB: string;
  rings: RingRow[];
}

/** Lower case without accents: "Côte d'Ivoire" → "cote d'ivoire". Applied to stored text and to q alike. */
export function normalizeText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** q → `to_tsquery('simple', …)` text matching every word by prefix ("new yo" → "new:* & yo:*"); null if no word. */
export function prefixTsQuery(q: string): string | null {
  // Only letters and digits reach the tsquery, so no user text is ever parsed as tsquery syntax.
  const words = normalizeText(q)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return words.length ? words.map((word) => `${word}:*`).join(' & ') : null;
}

export function prepareBoundary(input: BoundaryInput): PreparedBoundary {
  const geometry = closeRings(input.geometry);
  const codes = [...new Set(input.codes.map(normalizeText).filter(Boolean))];
  return {
    ...input,
    geometry,
    aliases: input.aliases.join(', '),
    codes,
    center: labelPoint(geometry),
    searchKey: normalizeText(input.title),
    searchA: [normalizeText(input.title), ...codes].join(' '),
    searchB: normalizeText(input.aliases.join(' ')),
    rings: ringsOf(geometry),
  };
}

/** The pole of inaccessibility of the largest polygon (by outer-ring area). */
export function labelPoint(geometry: BoundaryGeometry): [number, number] {
  const polygons = polygonsOf(geometry);
  let largest = polygons[0]!;
  for (const polygon of polygons) if (ringArea(polygon[0]!) > ringArea(largest[0]!)) largest = polygon;
  const [x, y] = polylabel(largest);
  // Round to ~1 m: more digits are noise.
  return [Math.round(x * 1e5) / 1e5, Math.round(y * 1e5) / 1e5];
}
