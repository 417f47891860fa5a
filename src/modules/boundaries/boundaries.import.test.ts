// `gable import boundaries`: every feature validated first (bad ones reported by index, nothing written), then one
// idempotent transaction.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGable } from '../../../test/helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { openDatabase, type Database } from '../../db/database.js';
import { parseBoundaryFile } from './boundaries.import.js';
import { loadBoundaries } from './boundaries.loader.js';
import { containsPoint } from './boundaries.repository.js';

const square = (x: number, y: number, size = 1) => [
  [
    [x, y],
    [x + size, y],
    [x + size, y + size],
    [x, y + size],
    [x, y],
  ],
];
const place = (geoid: string, name: string, coordinates: unknown, type = 'Polygon') => ({
  type: 'Feature',
  properties: { GEOID: geoid, NAME: name, POPULATION: 1200 },
  geometry: { type, coordinates },
});
const goodFile = (names: [string, string]) => ({
  type: 'FeatureCollection',
  features: [
    place('4819000', names[0], square(-97, 32)),
    place('4835000', names[1], [square(-95, 29), square(-94, 30)], 'MultiPolygon'),
  ],
});
const badFile = {
  type: 'FeatureCollection',
  features: [
    place('1', 'Fine', square(0, 0)),
    place('2', 'Open ring', [
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ],
    ]),
    place('3', 'Too short', [
      [
        [0, 0],
        [1, 0],
        [0, 0],
      ],
    ]),
    place('4', 'Latitude', [
      [
        [0, 0],
        [1, 0],
        [1, 95],
        [0, 0],
      ],
    ]),
    { type: 'Feature', properties: { GEOID: '5', NAME: 'Point' }, geometry: { type: 'Point', coordinates: [0, 0] } },
    place('6', 'Text', [
      [
        [0, 0],
        ['1', 0],
        [1, 1],
        [0, 0],
      ],
    ]),
    place('1', 'Duplicate', square(5, 5)),
    { type: 'Feature', properties: { NAME: 'No id' }, geometry: { type: 'Polygon', coordinates: square(0, 0) } },
  ],
};
const options = { type: 'city' as const, idField: 'GEOID', titleField: 'NAME', country: 'us', state: 'Texas' };

describe('boundary import', () => {
  let source: TestDatabase;
  let database: Database;
  let dir: string;

  beforeAll(async () => {
    source = await createTestDatabase();
    database = await openDatabase({
      databaseUrl: source.databaseUrl,
      dataDir: '',
      poolSize: 2,
      ...(source.pglite ? { pglite: source.pglite } : {}),
    });
    dir = mkdtempSync(join(tmpdir(), 'gable-boundaries-'));
  });
  afterAll(async () => {
    await database.close();
    await source.pglite?.close();
    await source.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports every bad feature with its index and reason, and keeps nothing', () => {
    const { boundaries, problems } = parseBoundaryFile(badFile, options);
    expect(boundaries).toEqual([]);
    expect(problems.map((p) => p.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(problems[0]!.reason).toMatch(/not closed/);
    expect(problems[1]!.reason).toMatch(/3 positions/);
    expect(problems[2]!.reason).toMatch(/latitude 95/);
    expect(problems[3]!.reason).toMatch(/Point is not Polygon/);
    expect(problems[4]!.reason).toMatch(/not numeric/);
    expect(problems[5]!.reason).toMatch(/duplicate id city:1 \(also feature 0\)/);
    expect(problems[6]!.reason).toMatch(/GEOID/);
    expect(parseBoundaryFile({ type: 'Feature' }, options).problems).toEqual([
      { index: -1, reason: expect.stringMatching(/FeatureCollection/) },
    ]);
  });

  it('exits non-zero on a malformed file, naming the features, before touching any database', async () => {
    const file = join(dir, 'bad.geojson');
    writeFileSync(file, JSON.stringify(badFile));
    const failure = await runGable(
      ['import', 'boundaries', file, '--type', 'city', '--id-field', 'GEOID', '--title-field', 'NAME'],
      { DATA_DIR: join(dir, 'untouched') },
    ).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('feature 1: ring 0 is not closed');
    expect(failure?.stderr).toContain('7 invalid feature(s): nothing imported');
    expect(existsSync(join(dir, 'untouched'))).toBe(false); // no database was opened, so no data directory made
  }, 60_000);

  it('imports a good file and re-imports it idempotently by external id', async () => {
    const first = parseBoundaryFile(goodFile(['Dallas', 'Houston']), options);
    expect(first.problems).toEqual([]);
    await loadBoundaries(database.db, first.boundaries);
    const before = await database.db
      .selectFrom('boundaries')
      .select(['id', 'external_id', 'title', 'population', 'subtitle', 'country'])
      .orderBy('external_id')
      .execute();
    expect(before).toMatchObject([
      { external_id: 'city:4819000', title: 'Dallas', population: 1200, subtitle: 'Texas, US', country: 'US' },
      { external_id: 'city:4835000', title: 'Houston' },
    ]);

    await loadBoundaries(database.db, parseBoundaryFile(goodFile(['Dallas', 'Houston City']), options).boundaries);
    const after = await database.db
      .selectFrom('boundaries')
      .select(['id', 'external_id', 'title'])
      .orderBy('external_id')
      .execute();
    expect(after.map((b) => b.id)).toEqual(before.map((b) => b.id));
    expect(after[1]!.title).toBe('Houston City');
    const rings = await database.db
      .selectFrom('boundary_rings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rings.n)).toBe(3);
    expect(await containsPoint(database.db, [after[1]!.id], -93.5, 30.5)).toBe(true);
  });

  it('imports through the CLI', async () => {
    const file = join(dir, 'good.geojson');
    writeFileSync(file, JSON.stringify(goodFile(['Dallas', 'Houston CLI'])));
    // On PostgreSQL the CLI writes into this file's database; embedded, into a data directory of its own that
    // the test opens afterwards (the CLI has released its lock by then).
    const dataDir = join(dir, 'cli-data');
    const target: Record<string, string> = source.databaseUrl
      ? { DATABASE_URL: source.databaseUrl }
      : { DATA_DIR: dataDir };
    const { stdout } = await runGable(
      [
        'import',
        'boundaries',
        file,
        '--type',
        'city',
        '--id-field',
        'GEOID',
        '--title-field',
        'NAME',
        '--country',
        'US',
        '--state',
        'Texas',
      ],
      target,
    );
    expect(stdout).toContain('2 boundaries imported');
    const imported = source.databaseUrl ? database : await openDatabase({ databaseUrl: null, dataDir });
    try {
      const houston = await imported.db
        .selectFrom('boundaries')
        .select('title')
        .where('external_id', '=', 'city:4835000')
        .executeTakeFirstOrThrow();
      expect(houston.title).toBe('Houston CLI');
    } finally {
      if (imported !== database) await imported.close();
    }
  }, 120_000);
});
