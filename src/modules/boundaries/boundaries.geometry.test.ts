// Containment (holes, edges, multipolygons), label points, the antimeridian split, and the real us-atlas states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { openDatabase, type Database } from '../../db/database.js';
import { splitAtAntimeridian } from '../../lib/antimeridian.js';
import { polylabel } from '../../lib/polylabel.js';
import { loadBoundaries, seedShippedBoundaries } from './boundaries.loader.js';
import type { BoundaryInput } from './boundaries.model.js';
import { boundaryContainsPoint, ringsContainPoint } from './containment.query.js';
import { containmentRings, containsPoint } from './boundaries.repository.js';

const boundary = (externalId: string, geometry: BoundaryInput['geometry']): BoundaryInput => ({
  externalId,
  boundaryType: 'neighborhood',
  title: externalId,
  country: 'US',
  state: 'Texas',
  subtitle: 'Texas, US',
  aliases: [],
  codes: [],
  population: null,
  geometry,
});
// 0..10 square with a 4..6 hole, and a second polygon (an island inside the hole: 4.5..5.5) for the multipolygon.
const outer = [
  [0, 0],
  [10, 0],
  [10, 10],
  [0, 10],
  [0, 0],
];
const hole = [
  [4, 4],
  [6, 4],
  [6, 6],
  [4, 6],
  [4, 4],
];
const island = [
  [4.5, 4.5],
  [5.5, 4.5],
  [5.5, 5.5],
  [4.5, 5.5],
  [4.5, 4.5],
];
const farSquare = [
  [20, 20],
  [21, 20],
  [21, 21],
  [20, 21],
  [20, 20],
];

describe('boundary containment', () => {
  let source: TestDatabase;
  let database: Database;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    source = await createTestDatabase();
    database = await openDatabase({
      databaseUrl: source.databaseUrl,
      dataDir: '',
      poolSize: 2,
      ...(source.pglite ? { pglite: source.pglite } : {}),
    });
    await loadBoundaries(database.db, [
      boundary('donut', { type: 'Polygon', coordinates: [outer, hole] }),
      boundary('multi', { type: 'MultiPolygon', coordinates: [[outer, hole], [island], [farSquare]] }),
    ]);
    for (const row of await database.db.selectFrom('boundaries').select(['id', 'external_id']).execute())
      ids[row.external_id] = row.id;
  });
  afterAll(async () => {
    await database.close();
    await source.pglite?.close();
    await source.drop();
  });

  const inside = (name: string, lon: number, lat: number) => containsPoint(database.db, [ids[name]!], lon, lat);

  it('honours holes', async () => {
    expect(await inside('donut', 2, 2)).toBe(true);
    expect(await inside('donut', 5, 5)).toBe(false);
    expect(await inside('donut', 11, 5)).toBe(false);
  });

  it('counts edges as inside: the outer edge, a corner, and the hole edge', async () => {
    expect(await inside('donut', 0, 5)).toBe(true);
    expect(await inside('donut', 10, 10)).toBe(true);
    expect(await inside('donut', 4, 5)).toBe(true);
    expect(await inside('donut', 5, 6)).toBe(true);
    expect(await inside('donut', 4.001, 5)).toBe(false);
  });

  it('keeps the hole edge inclusive from outside the hole too (PostgreSQL treats 1e-6 as on the edge)', async () => {
    expect(await inside('donut', 3.9999999, 5)).toBe(true); // just outside the hole, inside the ring
    expect(await inside('donut', 4.0000001, 5)).toBe(true); // within the edge tolerance, inside the hole
    expect(await inside('donut', 4.00001, 5)).toBe(false); // clearly inside the hole
  });

  it('tests every polygon of a multipolygon, holes only against their own polygon', async () => {
    expect(await inside('multi', 5, 5)).toBe(true); // island inside the first polygon's hole
    expect(await inside('multi', 4.2, 4.2)).toBe(false); // in the hole, off the island
    expect(await inside('multi', 20.5, 20.5)).toBe(true);
    expect(await inside('multi', 15, 15)).toBe(false);
  });

  it('matches any of several boundaries', async () => {
    expect(await containsPoint(database.db, [ids.donut!, ids.multi!], 4.2, 4.2)).toBe(false);
    expect(await containsPoint(database.db, [ids.donut!, ids.multi!], 20.5, 20.5)).toBe(true);
    expect(await containsPoint(database.db, [], 2, 2)).toBe(false);
  });

  it('filters a column of points, as the listings search uses it', async () => {
    const inDonut = boundaryContainsPoint([ids.donut!], sql.ref('t.p'));
    const { rows } = await sql<{ label: string }>`
      select t.label from (values ('ring', point(2, 2)), ('hole', point(5, 5)), ('edge', point(0, 5)), ('out', point(30, 30))) as t(label, p)
      where ${inDonut} order by t.label`.execute(database.db);
    expect(rows.map((r) => r.label)).toEqual(['edge', 'ring']);
  });

  it('gives the same answers with the rings as constants or read by the statement (ringsContainPoint)', async () => {
    // A grid over both boundaries, plus every edge case above: hole edges, corners, the 1e-6 tolerance from both
    // sides of an outer edge and of a hole edge, the island, the far square.
    const points: [number, number][] = [];
    for (let x = -1; x <= 22; x += 0.25) for (let y = -1; y <= 22; y += 0.25) points.push([x, y]);
    for (const d of [0, 1e-7, -1e-7, 1e-5, -1e-5]) {
      for (const [x, y] of [
        [0, 5],
        [10, 5],
        [5, 0],
        [5, 10],
        [4, 5],
        [6, 5],
        [5, 4],
        [5, 6],
        [4.5, 5],
        [5.5, 5],
        [20, 20.5],
        [21, 20.5],
      ] as const)
        points.push([x + d, y], [x, y + d]);
    }
    const values = sql.join(points.map(([x, y], i) => sql`(${i}::int, point(${x}::float8, ${y}::float8))`));
    const inside = async (predicate: (p: ReturnType<typeof sql.ref>) => ReturnType<typeof sql>) => {
      const { rows } = await sql<{
        i: number;
      }>`select t.i from (values ${values}) as t(i, p) where ${predicate(sql.ref('t.p'))} order by t.i`.execute(
        database.db,
      );
      return rows.map((row) => row.i);
    };
    for (const names of [['donut'], ['multi'], ['donut', 'multi']]) {
      const boundaryIds = names.map((name) => ids[name]!);
      const constants = await containmentRings(database.db, boundaryIds);
      // The listings search's predicate before ringsContainPoint: an exact `p <@ box` of some outer ring (its index
      // condition) and the table form. (Without the boxes, a point 1e-7 outside the box of one polygon of a
      // multipolygon but inside the box of them all is inside: the boxes keep the search's answers unchanged.)
      const outerBoxes = constants.filter((ring) => !ring.isHole).map((ring) => ring.box);
      const expected = await inside(
        (p) => sql`(${p} <@ any(${outerBoxes}::text[]::box[]) and ${boundaryContainsPoint(boundaryIds, p)})`,
      );
      expect(expected.length).toBeGreaterThan(100);
      expect(constants.every((ring) => ring.polygon !== null)).toBe(true);
      expect(await inside((p) => ringsContainPoint(constants, p)), names.join('+')).toEqual(expected);
      // Over the inline budget the polygons are read by the statement: same answers.
      const fromTable = await containmentRings(database.db, boundaryIds, 0);
      expect(fromTable.every((ring) => ring.polygon === null)).toBe(true);
      expect(await inside((p) => ringsContainPoint(fromTable, p)), `${names.join('+')} from the table`).toEqual(
        expected,
      );
    }
    expect(await inside((p) => ringsContainPoint([], p))).toEqual([]);
  });

  it('uses the GiST index on ring boxes', async () => {
    await sql`set enable_seqscan = off`.execute(database.db);
    const plan = await sql<{
      'QUERY PLAN': string;
    }>`explain select 1 from boundary_rings r where r.box @> box(point(2,2), point(2,2)) and r.polygon @> point(2,2)`.execute(
      database.db,
    );
    await sql`reset enable_seqscan`.execute(database.db);
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/boundary_rings_box_idx/);
  });

  it('loads the real us-atlas states: Dallas is in Texas, Kansas City MO is not in Kansas', async () => {
    await seedShippedBoundaries(database.db, { countries: false, stateFips: undefined });
    const state = async (fips: string) =>
      (
        await database.db
          .selectFrom('boundaries')
          .select('id')
          .where('external_id', '=', `us-state:${fips}`)
          .executeTakeFirstOrThrow()
      ).id;
    expect(await containsPoint(database.db, [await state('48')], -96.797, 32.7767)).toBe(true);
    expect(await containsPoint(database.db, [await state('40')], -96.797, 32.7767)).toBe(false);
    expect(await containsPoint(database.db, [await state('29')], -94.5786, 39.0997)).toBe(true);
    expect(await containsPoint(database.db, [await state('20')], -94.5786, 39.0997)).toBe(false);
    // Hawaii is a multipolygon: Honolulu (Oahu) and Hilo (Big Island) are both in it.
    expect(await containsPoint(database.db, [await state('15')], -157.8583, 21.3069)).toBe(true);
    expect(await containsPoint(database.db, [await state('15')], -155.09, 19.7241)).toBe(true);
  }, 120_000);
});

describe('label point and antimeridian', () => {
  it('puts the label point of a donut in its ring, not in the hole', () => {
    const [x, y] = polylabel([outer, hole]);
    const inHole = x > 4 && x < 6 && y > 4 && y < 6;
    expect(inHole).toBe(false);
    expect(x).toBeGreaterThan(0);
    expect(y).toBeLessThan(10);
  });

  it('splits a ring that jumps across ±180° into a western and an eastern polygon', () => {
    const crossing = [
      [179, 10],
      [-179, 10],
      [-179, 11],
      [179, 11],
      [179, 10],
    ];
    const parts = splitAtAntimeridian([crossing]);
    expect(parts).toHaveLength(2);
    const ranges = parts.map((p) => p[0]!.map((q) => q[0]!)).map((xs) => [Math.min(...xs), Math.max(...xs)]);
    expect(ranges).toContainEqual([179, 180]);
    expect(ranges).toContainEqual([-180, -179]);
    expect(splitAtAntimeridian([outer])).toEqual([[outer]]);
  });
});
