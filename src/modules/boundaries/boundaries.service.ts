// Boundaries catalogue: public reference data any authenticated user may read (no brand scope).
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { epochSeconds } from '../../lib/clock.js';
import { normalizeText, prefixTsQuery } from './boundaries.model.js';
import { findBoundary, searchBoundaries, type BoundaryRow } from './boundaries.repository.js';
import type { BoundaryRecord, BoundarySearchQueryType } from './boundaries.schemas.js';

export async function searchBoundaryCatalogue(
  deps: Deps,
  query: BoundarySearchQueryType,
  omit: Set<string>,
): Promise<{ rows: BoundaryRecord[]; total: number }> {
  const q = query.q?.trim() ? query.q : null;
  const tsQuery = q === null ? null : prefixTsQuery(q);
  // A q of punctuation only names nothing: answer nothing rather than the whole catalogue.
  if (q !== null && tsQuery === null) return { rows: [], total: 0 };
  const { rows, total } = await searchBoundaries(deps.db, {
    tsQuery,
    normalizedQ: q === null ? null : normalizeText(q),
    boundaryType: query.boundary_type,
    country: query.country,
    state: query.state,
    start: query.start,
    limit: query.limit,
    // Geometries are most of a result's bytes: do not even read them when the client omits them.
    withGeometry: !omit.has('boundary.geometry'),
  });
  return { rows: rows.map(toRecord), total };
}

export async function getBoundary(deps: Deps, id: string): Promise<BoundaryRecord> {
  const row = await findBoundary(deps.db, id);
  if (!row) throw errors.notFound('Boundary');
  return toRecord(row);
}

function toRecord(row: BoundaryRow): BoundaryRecord {
  return {
    type: 'boundary',
    id: row.id,
    external_id: row.external_id,
    boundary_type: row.boundary_type,
    title: row.title,
    overridden_title: row.overridden_title,
    // Spec 2.8 types both as plain strings: unknown (a country has no state) is "", not null.
    country: row.country ?? '',
    state: row.state ?? '',
    subtitle: row.subtitle,
    aliases: row.aliases,
    population: row.population,
    ...(row.geometry === undefined ? {} : { geometry: row.geometry as BoundaryRecord['geometry'] }),
    center: { type: 'Point', coordinates: [row.lon, row.lat] },
    searchable: row.searchable,
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
    deleted_at: row.deleted_at ? epochSeconds(row.deleted_at) : null,
  };
}
