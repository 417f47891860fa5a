// Listing search figures on a database that already holds many listings (`gable seed listings --count N`):
// polygon + price + beds, boundary-linked, sorted paging (first and deep pages), agents and text searches.
// Scenario parameters come from the data itself (its bounding box, some agent ids), so any seed works.
// Target (decisions / brief): p95 ≤ 50 ms on PostgreSQL with 1,000,000 listings.
import { sql } from 'kysely';
import type { Deps } from '../src/platform/deps.js';
import { upsertBoundaries } from '../src/modules/boundaries/boundaries.repository.js';
import { prepareBoundary } from '../src/modules/boundaries/boundaries.model.js';
import { compileFilters } from '../src/modules/listings/search/filters.query.js';
import { runSearch } from '../src/modules/listings/search/search.repository.js';
import type { SearchBody } from '../src/modules/listings/search/search.schemas.js';
import { normalizeCriteria, resolveSort } from '../src/modules/listings/search/search.validation.js';
import { createFoundationFixture } from './foundation.bench.js';
import { closedLoop, type LoadResult, type LoopRequest } from './lib/load.js';

export interface ListingSearchFixture {
  brand: string;
  userId: string;
  accessToken: string;
  /** Listing bounding box (x = longitude, y = latitude). */
  box: { minX: number; minY: number; maxX: number; maxY: number };
  boundary: string;
  agents: string[];
  listings: number;
}

type Box = ListingSearchFixture['box'];

/** A closed ring around a rectangle that covers `fraction` of the data's area, centred at (cx, cy) ∈ [0,1]². */
export function rectangle(box: Box, fraction: number, cx = 0.5, cy = 0.5) {
  const side = Math.sqrt(fraction);
  const w = (box.maxX - box.minX) * side;
  const h = (box.maxY - box.minY) * side;
  const x0 = box.minX + (box.maxX - box.minX) * cx - w / 2;
  const y0 = box.minY + (box.maxY - box.minY) * cy - h / 2;
  const at = (x: number, y: number) => ({ longitude: x, latitude: y });
  return [at(x0, y0), at(x0 + w, y0), at(x0 + w, y0 + h), at(x0, y0 + h), at(x0, y0)];
}

export interface FixtureOptions {
  /** Map searches inside this square (e.g. one metro of `gable seed listings`) instead of the data's bounding box. */
  around?: { longitude: number; latitude: number; km: number };
}

export async function createListingSearchFixture(
  deps: Deps,
  options: FixtureOptions = {},
): Promise<ListingSearchFixture> {
  const foundation = await createFoundationFixture(deps);
  const membership = await deps.db
    .selectFrom('memberships')
    .select('brand')
    .where('user', '=', foundation.userId)
    .executeTakeFirstOrThrow();
  const stats = await sql<{ minx: number; miny: number; maxx: number; maxy: number; n: number }>`
    select min(location[0]) as minx, min(location[1]) as miny, max(location[0]) as maxx, max(location[1]) as maxy, count(*)::int as n
    from listings where location is not null`.execute(deps.db);
  const s = stats.rows[0]!;
  const around = options.around;
  const dLat = around ? around.km / 111 : 0;
  const dLon = around ? around.km / (111 * Math.cos((around.latitude * Math.PI) / 180)) : 0;
  const box = around
    ? {
        minX: around.longitude - dLon,
        minY: around.latitude - dLat,
        maxX: around.longitude + dLon,
        maxY: around.latitude + dLat,
      }
    : { minX: s.minx, minY: s.miny, maxX: s.maxx, maxY: s.maxy };
  // A boundary over ~1 % of the area with a hole in its middle: the containment rule must honour the hole.
  const outer = rectangle(box, 0.01, 0.3, 0.3).map((p) => [p.longitude, p.latitude]);
  const hole = rectangle(box, 0.001, 0.3, 0.3)
    .map((p) => [p.longitude, p.latitude])
    .reverse();
  await upsertBoundaries(deps.db, [
    prepareBoundary({
      externalId: `bench-search-${Date.now()}`,
      boundaryType: 'neighborhood',
      title: 'Bench Heights',
      country: 'US',
      state: null,
      subtitle: '',
      aliases: [],
      codes: [],
      population: null,
      geometry: { type: 'Polygon', coordinates: [outer, hole] },
    }),
  ]);
  const boundary = await deps.db
    .selectFrom('boundaries')
    .select('id')
    .where('title', '=', 'Bench Heights')
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  // Ten list agents of the data, linked to the bench user so that `brands` has members' agents to find.
  const agentRows = await sql<{
    mui: string;
  }>`select list_agent_mui as mui from listings where list_agent_mui is not null limit 10`.execute(deps.db);
  const agents = [...new Set(agentRows.rows.map((r) => r.mui))];
  for (const mui of agents) {
    const agent = await deps.db
      .insertInto('agents')
      .values({ mls: 'BENCH', mlsid: `bench-${mui}`, mls_unique_id: mui } as never)
      .onConflict((oc) => oc.columns(['mls', 'mlsid']).doUpdateSet({ mls_unique_id: mui }))
      .returning('id')
      .executeTakeFirstOrThrow();
    await deps.db
      .insertInto('user_agents')
      .values({ user: foundation.userId, agent: agent.id })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return {
    brand: membership.brand,
    userId: foundation.userId,
    accessToken: foundation.accessToken,
    box,
    boundary: boundary.id,
    agents,
    listings: s.n,
  };
}

export interface Scenario {
  name: string;
  request: (i: number) => LoopRequest;
}

export function listingSearchScenarios(f: ListingSearchFixture): Scenario[] {
  const headers = { authorization: `Bearer ${f.accessToken}` };
  const post = (body: unknown, path = `/brands/${f.brand}/listings`): LoopRequest => ({
    method: 'POST',
    path,
    body,
    headers,
  });
  // Vary the window a little per request so caches of one exact query do not flatter the figures.
  const jitter = (i: number) => 0.4 + ((i * 7919) % 200) / 1000;
  const map = (i: number, fraction: number) => rectangle(f.box, fraction, jitter(i), jitter(i + 1));
  return [
    {
      name: 'map 0.5 %: polygon + price + beds',
      request: (i) =>
        post({ points: map(i, 0.005), minimum_price: 200_000, maximum_price: 800_000, minimum_bedrooms: 3, limit: 50 }),
    },
    {
      name: 'map 5 %: polygon + price + beds',
      request: (i) =>
        post({ points: map(i, 0.05), minimum_price: 200_000, maximum_price: 800_000, minimum_bedrooms: 3, limit: 50 }),
    },
    { name: 'boundary (1 % with hole) + beds', request: () => post({ boundaries: [f.boundary], minimum_bedrooms: 2 }) },
    {
      name: 'map 2 % sorted price desc, page 1',
      request: (i) => post({ points: map(i, 0.02), sort: [{ by: 'price', dir: 'desc' }], start: 0, limit: 50 }),
    },
    {
      name: 'map 5 % sorted list_date desc, deep page (start 5000)',
      request: (i) => post({ points: map(i, 0.05), sort: [{ by: 'list_date', dir: 'desc' }], start: 5000, limit: 50 }),
    },
    {
      name: 'map 2 % multi-key sort (beds desc, price asc), page 20',
      request: (i) =>
        post({
          points: map(i, 0.02),
          sort: [{ by: 'bedrooms', dir: 'desc' }, { by: 'price' }],
          start: 1000,
          limit: 50,
        }),
    },
    {
      name: 'brand (10 agents, 8 slots) sorted price',
      request: () => post({ brands: [f.brand], sort: [{ by: 'price' }] }),
    },
    { name: 'agents any slot', request: (i) => post({ agents: [f.agents[i % f.agents.length]!] }) },
    { name: 'map 2 % + text search "pool"', request: (i) => post({ points: map(i, 0.02), search: 'pool' }) },
    {
      name: 'POST /valerts/count map 5 %',
      request: (i) => ({
        ...post({ points: map(i, 0.05) }, '/valerts/count'),
        headers: { ...headers, 'x-rechat-brand': f.brand },
      }),
    },
  ];
}

/** Each scenario in a closed loop: `requests` requests from `concurrency` workers, after a short warm-up. */
export async function benchListingSearch(
  url: string,
  fixture: ListingSearchFixture,
  options: { requests?: number; concurrency?: number; only?: string[] } = {},
): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  const wanted = (name: string) => !options.only || options.only.some((word) => name.includes(word));
  for (const scenario of listingSearchScenarios(fixture).filter((s) => wanted(s.name))) {
    await closedLoop(`warm-up ${scenario.name}`, url, scenario.request, { concurrency: 2, requests: 10 });
    results.push(
      await closedLoop(scenario.name, url, scenario.request, {
        concurrency: options.concurrency ?? 4,
        requests: options.requests ?? 200,
      }),
    );
  }
  return results;
}

/**
 * The three ways to get the exact total (search.query.ts), measured on the SQL alone, one query at a time:
 * p50/p95 per strategy and scenario. Only body criteria that need no service lookups (points, text, sort).
 */
export async function compareTotalStrategies(
  deps: Deps,
  fixture: ListingSearchFixture,
  repetitions = 20,
): Promise<LoadResult[]> {
  const scenarios: [string, SearchBody][] = [
    [
      'map 0.5 % + price + beds',
      { points: rectangle(fixture.box, 0.005), minimum_price: 200_000, maximum_price: 800_000, minimum_bedrooms: 3 },
    ],
    ['map 2 % sorted price desc', { points: rectangle(fixture.box, 0.02), sort: [{ by: 'price', dir: 'desc' }] }],
    [
      'map 5 % deep page 5000',
      { points: rectangle(fixture.box, 0.05), sort: [{ by: 'list_date', dir: 'desc' }], start: 5000 },
    ],
    ['map 2 % + text "pool"', { points: rectangle(fixture.box, 0.02), search: 'pool' }],
  ];
  const results: LoadResult[] = [];
  for (const [name, body] of scenarios) {
    const { sort, start, limit, ...criteria } = body;
    const where = compileFilters(normalizeCriteria(criteria), { now: deps.clock.now() });
    const plan = { where, sort: resolveSort(sort, undefined), start: start ?? 0, limit: limit ?? 50 };
    for (const strategy of ['matches', 'subquery', 'window'] as const) {
      const latencies: number[] = [];
      await runSearch(deps.db, plan, strategy);
      const started = performance.now();
      for (let i = 0; i < repetitions; i++) {
        const t0 = performance.now();
        await runSearch(deps.db, plan, strategy);
        latencies.push(performance.now() - t0);
      }
      latencies.sort((a, b) => a - b);
      const at = (p: number) =>
        latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
      results.push({
        name: `${name} [${strategy}]`,
        requests: repetitions,
        errors: 0,
        rps: repetitions / ((performance.now() - started) / 1000),
        p50: at(50),
        p95: at(95),
        p99: at(99),
      });
    }
  }
  return results;
}
