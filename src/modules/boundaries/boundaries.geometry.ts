// Geometry model of boundaries without PostGIS (the containment predicates are containment.query.ts's).
//
// A boundary's GeoJSON (Polygon or MultiPolygon, [lon, lat]) is kept verbatim in boundaries.geometry and is
// also split into boundary_rings, one row per ring: (boundary, polygon_index, ring_index, is_hole, polygon, box).
// Ring 0 of each polygon is its outer ring, the others are its holes (GeoJSON order).
import type { MultiPolygon, Polygon, Position } from 'geojson';

export type BoundaryGeometry = Polygon | MultiPolygon;

export interface RingRow {
  polygonIndex: number;
  ringIndex: number;
  isHole: boolean;
  /** PostgreSQL polygon literal, closing position dropped (a polygon is implicitly closed). */
  polygon: string;
  /** PostgreSQL box literal '(x2,y2),(x1,y1)'. */
  box: string;
}

export function polygonsOf(geometry: BoundaryGeometry): Position[][][] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

/** One row per ring of the geometry, for boundary_rings. */
export function ringsOf(geometry: BoundaryGeometry): RingRow[] {
  const rows: RingRow[] = [];
  polygonsOf(geometry).forEach((rings, polygonIndex) => {
    rings.forEach((ring, ringIndex) => {
      const open = isClosed(ring) ? ring.slice(0, -1) : ring;
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
      for (const [x = 0, y = 0] of open) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
      rows.push({
        polygonIndex,
        ringIndex,
        isHole: ringIndex > 0,
        polygon: `(${open.map(([x, y]) => `(${x},${y})`).join(',')})`,
        box: `(${maxX},${maxY}),(${minX},${minY})`,
      });
    });
  });
  return rows;
}

export function isClosed(ring: Position[]): boolean {
  const first = ring[0];
  const last = ring[ring.length - 1];
  return !!first && !!last && first[0] === last[0] && first[1] === last[1];
}

/** The same geometry with every ring closed (first position repeated last), as GeoJSON requires. */
export function closeRings<G extends BoundaryGeometry>(geometry: G): G {
  const close = (ring: Position[]) => (isClosed(ring) ? ring : [...ring, ring[0]!]);
  if (geometry.type === 'Polygon') return { ...geometry, coordinates: geometry.coordinates.map(close) };
  return { ...geometry, coordinates: (geometry as MultiPolygon).coordinates.map((rings) => rings.map(close)) } as G;
}
