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
import { seedDemoWorld } from '../demo/demo-seed.js';
import { ownResponse } from '../../render/own-files.js';
import { DRAWN_FILES } from '../../deps.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';

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

// Issue 34 row 19: the demo world is the demo users plus the synthetic listings of the first start. An agent that
// belongs to a user is that user in the roster (the WordPress plugin names the user for `list_agent.id`), so its
// record must say the user's name, email and phone; agents that belong to no user stay synthetic.
describe('the demo world’s listing photos', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });

  it('are houses this server draws and serves, to the API and to the renderer, where the seed is given an origin', async () => {
    await seedListings(t.deps, { count: 12, mls: 'PHOTOS', seed: 7, photoOrigin: t.deps.config.baseUrl });
    await seedListings(t.deps, { count: 3, mls: 'NOPHOTOS', seed: 7 });
    const rows = await t.deps.db
      .selectFrom('listings')
      .select(['mls', 'gallery_image_urls', 'cover_image_url'])
      .where('mls', 'in', ['PHOTOS', 'NOPHOTOS'])
      .execute();
    const own = rows.filter((row) => row.mls === 'PHOTOS');
    expect(own).toHaveLength(12);
    const paths = new Set<string>();
    for (const row of own) {
      expect(row.gallery_image_urls.length).toBeGreaterThanOrEqual(4);
      expect(row.cover_image_url).toBe(row.gallery_image_urls[0]);
      for (const url of row.gallery_image_urls) {
        expect(new URL(url).origin).toBe(new URL(t.deps.config.baseUrl).origin);
        paths.add(new URL(url).pathname);
      }
    }
    // Several facades, each served as an SVG, by the API and by the renderer's in-process answer alike.
    expect(paths.size).toBeGreaterThan(4);
    for (const path of paths) {
      const served = await t.app.inject({ url: path });
      expect(served.statusCode, path).toBe(200);
      expect(served.headers['content-type']).toContain('image/svg+xml');
      const rendered = await ownResponse(t.deps, path, DRAWN_FILES);
      expect(rendered.status).toBe(200);
      expect(rendered.body.toString()).toBe(served.body);
    }
    expect((await t.app.inject({ url: '/demo/photos/house-99.svg' })).statusCode).toBe(404);
    // Without an origin (`gable seed listings`, the benches), addresses on a reserved domain, as before.
    for (const row of rows.filter((r) => r.mls === 'NOPHOTOS'))
      expect(new URL(row.cover_image_url!).hostname).toBe('images.gable.example');
  });
});

describe('the demo world’s agents', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });

  it('carry the name, email and phone of the user they belong to; the others stay unlinked', async () => {
    const world = await seedDemoWorld(t.deps);
    const dana = world.users.find((user) => user.email === 'dana.reyes@demo.example.com')!;
    await t.deps.db.updateTable('users').set({ phone_number: '+12145550142' }).where('id', '=', dana.id).execute();
    await seedListings(t.deps, { count: 60, seed: 3 });

    const linked = await t.deps.db
      .selectFrom('user_agents')
      .innerJoin('agents', 'agents.id', 'user_agents.agent')
      .innerJoin('users', 'users.id', 'user_agents.user')
      .select([
        'users.id as user',
        'users.first_name as userFirst',
        'users.last_name as userLast',
        'users.email as userEmail',
        'users.phone_number as userPhone',
        'agents.id as agent',
        'agents.first_name',
        'agents.last_name',
        'agents.full_name',
        'agents.email',
        'agents.phone_number',
      ])
      .execute();
    expect(new Set(linked.map((row) => row.user))).toEqual(new Set(world.users.map((user) => user.id)));
    for (const row of linked) {
      expect(row, row.userEmail).toMatchObject({
        first_name: row.userFirst,
        last_name: row.userLast,
        full_name: `${row.userFirst} ${row.userLast}`,
        email: row.userEmail,
        phone_number: row.userPhone,
      });
    }
    expect(linked.find((row) => row.user === dana.id)).toMatchObject({
      full_name: 'Dana Reyes',
      phone_number: '+12145550142',
    });

    // A listing of Dana's agent names Dana as its list agent, as the plugin's roster does.
    const danaAgent = linked.find((row) => row.user === dana.id)!.agent;
    const listing = await t.deps.db
      .selectFrom('listings')
      .innerJoin('agents', (join) =>
        join.on(sql<boolean>`agents.mls_unique_id = listings.list_agent_mui and agents.mls = listings.mls`),
      )
      .select('listings.id')
      .where('agents.id', '=', danaAgent)
      .executeTakeFirst();
    expect(listing, 'a listing of Dana’s agent').toBeDefined();
    const res = await t.app.inject({
      url: `/listings/${listing!.id}?associations[]=listing.list_agent`,
      headers: await clientHeaders(t.deps),
    });
    expect(res.json().data.list_agent).toMatchObject({ id: danaAgent, full_name: 'Dana Reyes' });

    const unlinked = await t.deps.db
      .selectFrom('agents')
      .select(['email'])
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('user_agents').select('agent').whereRef('user_agents.agent', '=', 'agents.id'))),
      )
      .execute();
    expect(unlinked.length).toBeGreaterThan(0);
    for (const agent of unlinked) expect(agent.email).toMatch(/@agents\.gable\.example$/);

    // A second run writes nothing and keeps every link as it is.
    const before = await t.deps.db.selectFrom('agents').select(['id', 'updated_at']).orderBy('id').execute();
    await seedListings(t.deps, { count: 60, seed: 3 });
    expect(await t.deps.db.selectFrom('agents').select(['id', 'updated_at']).orderBy('id').execute()).toEqual(before);
  });
});
