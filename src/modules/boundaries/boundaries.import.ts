// Reading a GeoJSON FeatureCollection (TIGER places and ZCTAs, Who's On First, …) into boundaries. Every feature
// is validated before anything is written: one bad feature rejects the file, with each problem reported by index.
import type { BoundaryGeometry } from './boundaries.geometry.js';
import type { BoundaryInput, BoundaryType } from './boundaries.model.js';

export interface ImportOptions {
  type: BoundaryType;
  /** property holding the title; default: the first of name, NAME, wof:name, title */
  titleField?: string | undefined;
  /** property holding the stable id; default: the feature's `id` */
  idField?: string | undefined;
  /** ISO country code of every feature */
  country?: string | undefined;
  /** state name of every feature */
  state?: string | undefined;
}

export interface FeatureProblem {
  /** 0-based index in `features` (-1: the file itself) */
  index: number;
  reason: string;
}

export interface ParsedImport {
  boundaries: BoundaryInput[];
  problems: FeatureProblem[];
}

const TITLE_FIELDS = ['name', 'NAME', 'wof:name', 'title'];
const POPULATION_FIELDS = ['population', 'POPULATION', 'wof:population', 'POP'];

export function parseBoundaryFile(json: unknown, options: ImportOptions): ParsedImport {
  const collection =
    typeof json === 'object' && json !== null ? (json as { type?: unknown; features?: unknown }) : null;
  if (collection?.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
    return {
      boundaries: [],
      problems: [{ index: -1, reason: 'not a GeoJSON FeatureCollection with a features array' }],
    };
  }
  const boundaries: BoundaryInput[] = [];
  const problems: FeatureProblem[] = [];
  const seenIds = new Map<string, number>();
  collection.features.forEach((candidate: unknown, index: number) => {
    const result = readFeature(candidate, options);
    if (typeof result === 'string') return problems.push({ index, reason: result });
    const previous = seenIds.get(result.externalId);
    if (previous !== undefined)
      return problems.push({ index, reason: `duplicate id ${result.externalId} (also feature ${previous})` });
    seenIds.set(result.externalId, index);
    boundaries.push(result);
  });
  return { boundaries: problems.length ? [] : boundaries, problems };
}

/** The boundary of one feature, or the reason it cannot be imported. */
function readFeature(candidate: unknown, options: ImportOptions): BoundaryInput | string {
  if (!candidate || typeof candidate !== 'object') return 'not an object';
  const feature = candidate as { type?: unknown; id?: unknown; properties?: unknown; geometry?: unknown };
  if (feature.type !== 'Feature') return 'type is not "Feature"';
  const properties = (feature.properties && typeof feature.properties === 'object' ? feature.properties : {}) as Record<
    string,
    unknown
  >;
  const geometryProblem = checkGeometry(feature.geometry);
  if (geometryProblem) return geometryProblem;

  const rawId = options.idField ? properties[options.idField] : feature.id;
  if (!isPresent(rawId))
    return options.idField ? `property ${options.idField} (the id) is missing` : 'feature has no id (use --id-field)';
  const titleField = options.titleField ?? TITLE_FIELDS.find((field) => isPresent(properties[field]));
  const title = titleField ? properties[titleField] : undefined;
  if (!isPresent(title))
    return options.titleField
      ? `property ${options.titleField} (the title) is missing`
      : 'no title property (use --title-field)';

  const id = String(rawId).trim();
  const populationField = POPULATION_FIELDS.find((field) => typeof properties[field] === 'number');
  const country = options.country?.toUpperCase() ?? null;
  const state = options.state ?? null;
  return {
    externalId: `${options.type}:${id}`,
    boundaryType: options.type,
    title: String(title).trim(),
    country,
    state,
    subtitle: [state, country].filter(Boolean).join(', '),
    aliases: [],
    codes: [id],
    population: populationField ? Math.round(properties[populationField] as number) : null,
    geometry: feature.geometry as BoundaryGeometry,
  };
}

function isPresent(value: unknown): value is string | number {
  return (typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && Number.isFinite(value));
}

/** null when the geometry is a valid Polygon / MultiPolygon, otherwise why not. */
export function checkGeometry(geometry: unknown): string | null {
  if (!geometry || typeof geometry !== 'object') return 'geometry is missing';
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  if (type !== 'Polygon' && type !== 'MultiPolygon')
    return `geometry type ${String(type)} is not Polygon or MultiPolygon`;
  if (!Array.isArray(coordinates) || coordinates.length === 0) return 'coordinates are missing or empty';
  const polygons: unknown[] = type === 'Polygon' ? [coordinates] : coordinates;
  for (const [p, polygon] of polygons.entries()) {
    const where = type === 'Polygon' ? '' : `polygon ${p} `;
    if (!Array.isArray(polygon) || polygon.length === 0) return `${where}has no rings`;
    for (const [r, ring] of polygon.entries()) {
      const problem = checkRing(ring);
      if (problem) return `${where}ring ${r} ${problem}`;
    }
  }
  return null;
}

function checkRing(ring: unknown): string | null {
  if (!Array.isArray(ring)) return 'is not an array of positions';
  if (ring.length < 4) return `has ${ring.length} positions (at least 4 needed)`;
  for (const [i, position] of ring.entries()) {
    if (!Array.isArray(position) || position.length < 2) return `position ${i} is not [longitude, latitude]`;
    const [lon, lat] = position as unknown[];
    if (typeof lon !== 'number' || typeof lat !== 'number' || !Number.isFinite(lon) || !Number.isFinite(lat))
      return `position ${i} is not numeric`;
    if (lon < -180 || lon > 180) return `position ${i} longitude ${lon} is out of range`;
    if (lat < -90 || lat > 90) return `position ${i} latitude ${lat} is out of range`;
  }
  const first = ring[0] as number[];
  const last = ring[ring.length - 1] as number[];
  if (first[0] !== last[0] || first[1] !== last[1]) return 'is not closed (first position must be repeated last)';
  return null;
}
