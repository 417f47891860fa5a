// Pole of inaccessibility: the interior point farthest from a polygon's outline, a good label / "center" point
// that, unlike the centroid, is always inside (a crescent's centroid is not). Mapbox's polylabel algorithm
// (ISC licence, https://github.com/mapbox/polylabel): quadtree cells searched best-first with a priority queue.
// Planar math on [lon, lat]: fine for a label point.

export type Ring = number[][];

interface Cell {
  x: number;
  y: number;
  half: number;
  /** distance from the cell center to the polygon outline (negative outside) */
  distance: number;
  /** best distance any point in the cell could reach */
  potential: number;
}

/** The pole of inaccessibility of a polygon (outer ring first, then holes), within `precision` (degrees). */
export function polylabel(rings: Ring[], precision?: number): [number, number] {
  const outer = rings[0];
  if (!outer || outer.length === 0) throw new Error('polylabel: empty polygon');
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const [x = 0, y = 0] of outer) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  const width = maxX - minX;
  const height = maxY - minY;
  const cellSize = Math.min(width, height);
  if (cellSize === 0) return [minX, minY];
  const tolerance = precision ?? Math.max(cellSize / 500, 1e-6);

  const cell = (x: number, y: number, half: number): Cell => {
    const distance = signedDistance(x, y, rings);
    return { x, y, half, distance, potential: distance + half * Math.SQRT2 };
  };
  const queue = new MaxQueue<Cell>((a, b) => a.potential - b.potential);
  const half = cellSize / 2;
  for (let x = minX; x < maxX; x += cellSize)
    for (let y = minY; y < maxY; y += cellSize) queue.push(cell(x + half, y + half, half));

  // Start from the better of the bounding-box center and the area centroid.
  let best = centroidCell(outer, cell);
  const boxCell = cell(minX + width / 2, minY + height / 2, 0);
  if (boxCell.distance > best.distance) best = boxCell;

  for (let next = queue.pop(); next; next = queue.pop()) {
    if (next.distance > best.distance) best = next;
    if (next.potential - best.distance <= tolerance) continue;
    const h = next.half / 2;
    queue.push(cell(next.x - h, next.y - h, h));
    queue.push(cell(next.x + h, next.y - h, h));
    queue.push(cell(next.x - h, next.y + h, h));
    queue.push(cell(next.x + h, next.y + h, h));
  }
  return [best.x, best.y];
}

/** Area of a ring (absolute, planar), to pick the largest polygon of a multipolygon. */
export function ringArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [ax = 0, ay = 0] = ring[i]!;
    const [bx = 0, by = 0] = ring[j]!;
    sum += (bx - ax) * (by + ay);
  }
  return Math.abs(sum / 2);
}

function centroidCell(ring: Ring, cell: (x: number, y: number, half: number) => Cell): Cell {
  let area = 0,
    x = 0,
    y = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [ax = 0, ay = 0] = ring[i]!;
    const [bx = 0, by = 0] = ring[j]!;
    const f = ax * by - bx * ay;
    x += (ax + bx) * f;
    y += (ay + by) * f;
    area += f * 3;
  }
  const first = ring[0]!;
  return area === 0 ? cell(first[0] ?? 0, first[1] ?? 0, 0) : cell(x / area, y / area, 0);
}

/** Distance from (x, y) to the nearest ring edge; positive inside the polygon (even-odd over all rings). */
function signedDistance(x: number, y: number, rings: Ring[]): number {
  let inside = false;
  let minSq = Infinity;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [ax = 0, ay = 0] = ring[i]!;
      const [bx = 0, by = 0] = ring[j]!;
      if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) inside = !inside;
      minSq = Math.min(minSq, segmentDistanceSq(x, y, ax, ay, bx, by));
    }
  }
  return (inside ? 1 : -1) * Math.sqrt(minSq);
}

function segmentDistanceSq(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  let x = ax,
    y = ay;
  let dx = bx - x,
    dy = by - y;
  if (dx !== 0 || dy !== 0) {
    const t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      x = bx;
      y = by;
    } else if (t > 0) {
      x += dx * t;
      y += dy * t;
    }
  }
  dx = px - x;
  dy = py - y;
  return dx * dx + dy * dy;
}

/** A small binary max-heap. */
class MaxQueue<T> {
  private readonly items: T[] = [];
  constructor(private readonly compare: (a: T, b: T) => number) {}

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(items[i]!, items[parent]!) <= 0) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let largest = i;
        if (l < items.length && this.compare(items[l]!, items[largest]!) > 0) largest = l;
        if (r < items.length && this.compare(items[r]!, items[largest]!) > 0) largest = r;
        if (largest === i) break;
        [items[i], items[largest]] = [items[largest]!, items[i]!];
        i = largest;
      }
    }
    return top;
  }
}
