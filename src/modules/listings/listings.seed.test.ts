// Synthetic listings: determinism, plausibility, boundary sampling, agents linked to users; NDJSON import.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createUser } from '../../../test/helpers/factories.js';
import { prepareBoundary } from '../boundaries/boundaries.model.js';
import { upsertBoundaries } from '../boundaries/boundaries.repository.js';
import { importListingsFile } from './listings.import.js';
import { checkListingInput } from './listings.input.js';
import { SeededRandom } from './listings.random.js';
import { seedListings } from './listings.seed.js';
import { syntheticListing } from './listings.synthetic.js';
import { sampleListing } from './listings.test-support.js';

const PLACE = {
  longitude: -96.8,
  latitude: 32.8,
  city: 'Dallas',
  state: 'TX',
  postalCode: '75219',
  pricePerSquareMeter: 2300,
};
const CONTEXT = { mls: 'SYN', agents: ['A1', 'A2', 'A3'], offices: ['O1'], now: 1_795_000_000 };

describe('synthetic listings', () => {
  it('are the same for the same seed, different for another, and always valid', () => {
    const draw = (seed: number) => {
      const random = new SeededRandom(seed);
      return Array.from({ length: 200 }, (_, i) => syntheticListing(random, PLACE, { ...CONTEXT, mlsNumber: `N${i}` }));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(8)).not.toEqual(draw(7));
    for (const record of draw(9)) expect(checkListingInput(record, 'SYN')).toMatchObject({ ok: true });
  });

  it('correlate bedrooms with size and give closed listings a close price and date', () => {
    const random = new SeededRandom(3);
    const records = Array.from({ length: 2000 }, (_, i) =>
      syntheticListing(random, PLACE, { ...CONTEXT, mlsNumber: `N${i}` }),
    );
    const homes = records
      .map((r) => r.property as { square_meters: number | null; bedroom_count: number | null })
      .filter((p) => p.square_meters !== null);
    const meanSize = (beds: (n: number) => boolean) => {
      const sizes = homes.filter((p) => beds(p.bedroom_count!)).map((p) => p.square_meters!);
      return sizes.reduce((a, b) => a + b, 0) / sizes.length;
    };
    expect(meanSize((n) => n >= 4)).toBeGreaterThan(meanSize((n) => n <= 2) * 1.5);
    const active = records.filter((r) => r.status === 'Active').length / records.length;
    expect(active).toBeGreaterThan(0.5);
    for (const sold of records.filter((r) => r.status === 'Sold')) {
      expect(sold.close_price).toBeGreaterThan(0);
      expect(sold.close_date as number).toBeGreaterThanOrEqual(sold.list_date as number);
    }
  });
});

describe('gable seed listings / import listings', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gable-listings-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('seeds deterministically: a second run with the same options changes nothing; agents are linked to users', async () => {
    const user = await createUser(t.deps);
    const first = await seedListings(t.deps, { count: 120, mls: 'SEEDTEST', seed: 5, batchSize: 50 });
    expect(first).toMatchObject({ created: 120, updated: 0, unchanged: 0, agents: 20, linkedUsers: 1 });
    const again = await seedListings(t.deps, { count: 120, mls: 'SEEDTEST', seed: 5, batchSize: 50 });
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 120, linkedUsers: 0 });
    const link = await t.deps.db
      .selectFrom('user_agents')
      .innerJoin('agents', 'agents.id', 'user_agents.agent')
      .select('agents.mls_unique_id')
      .where('user_agents.user', '=', user.id)
      .executeTakeFirstOrThrow();
    const listed = await t.deps.db
      .selectFrom('listings')
      .select('id')
      .where('mls', '=', 'SEEDTEST')
      .where(sql<boolean>`agent_muis @> ${[link.mls_unique_id]}::text[]`)
      .execute();
    expect(link.mls_unique_id).toMatch(/^SEEDTEST-A\d+$/);
    expect(listed.length).toBeGreaterThan(0);
    const events = await t.deps.db
      .selectFrom('listing_events')
      .innerJoin('listings', 'listings.id', 'listing_events.listing')
      .select('listing_events.id')
      .where('listings.mls', '=', 'SEEDTEST')
      .execute();
    expect(events).toHaveLength(0);
  });

  it('keeps seeded listings inside a boundary', async () => {
    const triangle = [
      [-97.0, 32.7],
      [-96.9, 32.7],
      [-97.0, 32.8],
      [-97.0, 32.7],
    ];
    await upsertBoundaries(t.deps.db, [
      prepareBoundary({
        externalId: 'seed-test-tri',
        boundaryType: 'neighborhood',
        title: 'Seed Triangle',
        country: 'US',
        state: 'Texas',
        subtitle: '',
        aliases: [],
        codes: [],
        population: null,
        geometry: { type: 'Polygon', coordinates: [triangle] },
      }),
    ]);
    await seedListings(t.deps, { count: 60, mls: 'TRI', within: 'seed triangle' });
    const rows = await t.deps.db.selectFrom('listings').select(['location', 'city']).where('mls', '=', 'TRI').execute();
    expect(rows).toHaveLength(60);
    for (const { location, city } of rows) {
      expect(city).toBe('Seed Triangle');
      // inside the triangle: x ≥ −97, y ≥ 32.7 and below the hypotenuse x + y ≤ −97 + 32.8
      expect(location!.x + location!.y).toBeLessThanOrEqual(-97 + 32.8 + 1e-9);
      expect(location!.y).toBeGreaterThanOrEqual(32.7 - 1e-9);
    }
    await expect(seedListings(t.deps, { count: 1, within: 'No Such Place' })).rejects.toMatchObject({
      code: 'ResourceNotFound',
    });
  });

  it('imports NDJSON in batches and reports bad lines by line number', async () => {
    const file = join(dir, 'listings.ndjson');
    const lines = [
      JSON.stringify(sampleListing('IMP-1')),
      '',
      '{"mls_number": "IMP-broken",',
      JSON.stringify(sampleListing('IMP-2', { status: 'Nope' })),
      JSON.stringify(sampleListing('IMP-3')),
      JSON.stringify(sampleListing('IMP-4')),
    ];
    writeFileSync(file, lines.join('\n') + '\n');
    const problems: { line: number }[] = [];
    const outcome = await importListingsFile(t.deps, file, {
      mls: 'IMPORT',
      batchSize: 2,
      onProblem: (p) => problems.push(p),
    });
    expect(outcome).toMatchObject({ lines: 6, created: 3, failed: 2, events: 3 });
    expect(problems.map((p) => p.line)).toEqual([3, 4]);
    const again = await importListingsFile(t.deps, file, { mls: 'IMPORT' });
    expect(again).toMatchObject({ created: 0, unchanged: 3, failed: 2 });
  });
});
