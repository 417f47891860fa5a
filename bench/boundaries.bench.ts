// Boundary search figures: GET /boundaries/search with mixed q prefixes, as a search-as-you-type box sends them.
// Target: p95 ≤ 10 ms on PostgreSQL with the shipped catalogue (~3,500 rows). Exact percentiles: closed loop.
import type { Deps } from '../src/platform/deps.js';
import { countBoundaries } from '../src/modules/boundaries/boundaries.repository.js';
import { seedShippedBoundaries } from '../src/modules/boundaries/boundaries.loader.js';
import { closedLoop, type LoadResult } from './lib/load.js';

export interface BoundariesBenchContext {
  /** base URL of a running Gable, e.g. http://127.0.0.1:3902 */
  url: string;
  /** a user's access token */
  accessToken: string;
  requests?: number;
  concurrency?: number;
  /** also return geometries (the spec's default record); autocomplete clients omit them */
  withGeometry?: boolean;
}

// Prefixes of titles, postal codes, ISO codes and FIPS codes: short ones match hundreds of rows.
const PREFIXES = [
  'Dal',
  'TX',
  'US',
  'Har',
  'San',
  'New',
  'Los',
  'Jeff',
  'Wash',
  'Cal',
  'Fr',
  'Ger',
  'Cook',
  'Mon',
  'Lin',
  'Ca',
  'M',
  'Ora',
  'Kin',
  '48',
  'Fl',
  'Bra',
  'Jap',
  'Au',
];

/** Loads the shipped catalogue into the bench database unless it is already there. */
export async function prepareBoundariesBench(deps: Deps): Promise<number> {
  if ((await countBoundaries(deps.db)) === 0) await seedShippedBoundaries(deps.db);
  return countBoundaries(deps.db);
}

export async function benchBoundaries(ctx: BoundariesBenchContext): Promise<LoadResult> {
  const headers = { authorization: `Bearer ${ctx.accessToken}` };
  const omit = ctx.withGeometry ? '' : '&omit[]=boundary.geometry';
  const limit = ctx.withGeometry ? 10 : 20;
  return closedLoop(
    `GET /boundaries/search (mixed prefixes, limit ${limit}${ctx.withGeometry ? ', with geometry' : ', geometry omitted'})`,
    ctx.url,
    (i) => ({
      method: 'GET',
      path: `/boundaries/search?q=${encodeURIComponent(PREFIXES[i % PREFIXES.length]!)}&limit=${limit}${omit}`,
      headers,
    }),
    { requests: ctx.requests ?? 3000, concurrency: ctx.concurrency ?? 4 },
  );
}
