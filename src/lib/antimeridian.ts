// Splitting polygons that cross the antimeridian (RFC 7946 §3.1.9), so that planar math (PostgreSQL polygons,
// label points) sees two sane shapes instead of one ring streaking across the whole map. world-atlas needs it for
// Russia's Chukotka and Fiji: their rings jump from +179.9 to -180.
// A ring that circles a pole (Antarctica: an odd number of crossings) is left as it is.

export type Position = number[];
export type PolygonRings = Position[][];

/** The polygon itself, or its western and eastern parts when its outer ring crosses the antimeridian. */
export function splitAtAntimeridian(polygon: PolygonRings): PolygonRings[] {
  const outer = polygon[0];
  if (!outer || crossings(outer) === 0 || crossings(outer) % 2 !== 0) return [polygon];
  const unwrapped = polygon.map(unwrap);
  const xs = unwrapped[0]!.map((p) => p[0]!);
  const meridian = Math.max(...xs) > 180 ? 180 : -180;
  const shift = meridian === 180 ? -360 : 360;
  // The side beyond the meridian is shifted back into [-180, 180].
  const inside = clipPolygon(unwrapped, meridian, meridian === 180 ? 'below' : 'above');
  const beyond = clipPolygon(unwrapped, meridian, meridian === 180 ? 'above' : 'below').map((rings) =>
    rings.map((ring) => ring.map(([x = 0, y = 0]) => [x + shift, y])),
  );
  return [...inside, ...beyond];
}

function crossings(ring: Position[]): number {
  let count = 0;
  for (let i = 1; i < ring.length; i++) if (Math.abs(ring[i]![0]! - ring[i - 1]![0]!) > 180) count++;
  return count;
}

/** Longitudes made continuous: after a jump of more than 180° the rest of the ring is shifted by ∓360. */
function unwrap(ring: Position[]): Position[] {
  let offset = 0;
  return ring.map((position, i) => {
    if (i > 0) {
      const dx = position[0]! - ring[i - 1]![0]!;
      if (dx < -180) offset += 360;
      else if (dx > 180) offset -= 360;
    }
    return [position[0]! + offset, position[1]!];
  });
}

/** Sutherland–Hodgman against the half-plane x ≤ m ('below') or x ≥ m ('above'); [] when nothing is left. */
function clipPolygon(rings: PolygonRings, m: number, keep: 'below' | 'above'): PolygonRings[] {
  const clipped = rings.map((ring) => clipRing(ring, m, keep)).filter((ring) => ring.length >= 4);
  const outer = clipped[0];
  if (!outer || clipRing(rings[0]!, m, keep).length < 4) return [];
  return [clipped];
}

function clipRing(ring: Position[], m: number, keep: 'below' | 'above'): Position[] {
  const isIn = (p: Position) => (keep === 'below' ? p[0]! <= m : p[0]! >= m);
  const open = ring.slice(0, -1);
  const out: Position[] = [];
  for (let i = 0; i < open.length; i++) {
    const current = open[i]!;
    const previous = open[(i + open.length - 1) % open.length]!;
    if (isIn(current)) {
      if (!isIn(previous)) out.push(intersect(previous, current, m));
      out.push(current);
    } else if (isIn(previous)) {
      out.push(intersect(previous, current, m));
    }
  }
  if (out.length > 0) out.push(out[0]!);
  return out;
}

function intersect(a: Position, b: Position, m: number): Position {
  const t = (m - a[0]!) / (b[0]! - a[0]!);
  return [m, a[1]! + t * (b[1]! - a[1]!)];
}
