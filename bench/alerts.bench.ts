// Saved-search matching figures (issue 12): N saved searches (a realistic mix: polygons around a listing, agents,
// offices, most with a price or bedroom range) against the seeded listings; listing events recorded and matched in
// jobs of 500, as ingest enqueues them. Measures events/s end to end (event recorded → matches stored), the
// per-job latency (p50/p99), and candidates vs confirmed matches. In process: the job handler itself, no queue wait.
import { sql } from 'kysely';
import type { Deps } from '../src/deps.js';
import { SeededRandom } from '../src/modules/listings/listings.random.js';
import { matchEvents } from '../src/modules/saved-searches/matching.service.js';
import { MATCH_BATCH } from '../src/modules/saved-searches/matching.tasks.js';
import type { FoundationFixture } from './foundation.bench.js';

export interface AlertsBenchResult {
  searches: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  jobP50Ms: number;
  jobP99Ms: number;
  matches: number;
}

const KM = 1 / 111;

export async function benchAlertMatching(deps: Deps, fixture: FoundationFixture, options: { searches: number; events: number; seed?: number }): Promise<AlertsBenchResult> {
  const random = new SeededRandom(options.seed ?? 7);
  const brand = (await deps.db.selectFrom('memberships').select('brand').where('user', '=', fixture.userId).executeTakeFirstOrThrow()).brand;
  // Anchors drawn from the listings themselves, so searches sit where listings are.
  const { rows: sample } = await sql<{ x: number; y: number; agent: string | null; office: string | null }>`
    select location[0] as x, location[1] as y, list_agent_mui as agent, list_office_mls_id as office
    from listings tablesample system (5) where location is not null limit 20000`.execute(deps.db);
  const criteria = Array.from({ length: options.searches }, () => {
    const at = random.pick(sample);
    const c: Record<string, unknown> = {};
    const roll = random.next();
    if (roll < 0.6 || !at.agent) {
      const r = random.between(1, 5) * KM;
      c.points = [[at.x - r, at.y - r], [at.x + r, at.y - r], [at.x + r, at.y + r], [at.x - r, at.y + r], [at.x - r, at.y - r]].map(([longitude, latitude]) => ({ longitude, latitude }));
    } else if (roll < 0.9) c.agents = [at.agent];
    else c.offices = [at.office ?? at.agent];
    if (random.chance(0.7)) c.maximum_price = 100_000 * random.integer(3, 15);
    if (random.chance(0.3)) c.minimum_price = 100_000 * random.integer(1, 3);
    if (random.chance(0.5)) c.minimum_bedrooms = random.integer(1, 4);
    if (random.chance(0.3)) c.listing_statuses = ['Active'];
    return c;
  });
  for (let i = 0; i < criteria.length; i += 1000) {
    await deps.db
      .insertInto('saved_searches')
      .values(criteria.slice(i, i + 1000).map((c) => ({ brand, created_by: fixture.userId, from_user: fixture.userId, title: null, proposed_title: 'bench', criteria: JSON.stringify(c) })))
      .execute();
  }
  await sql`analyze saved_searches`.execute(deps.db);

  // Events of random listings, recorded as ingest records them.
  const { rows: listings } = await sql<{ id: string }>`select id from listings tablesample system (10) limit ${options.events}`.execute(deps.db);
  const ids = (await deps.db.insertInto('listing_events').values(listings.map((l) => ({ listing: l.id, type: 'PriceDropped' as const }))).returning('id').execute()).map((e) => e.id);
  const jobs: number[] = [];
  let matches = 0;
  const started = performance.now();
  for (let i = 0; i < ids.length; i += MATCH_BATCH) {
    const t0 = performance.now();
    const { outcome } = await matchEvents(deps, ids.slice(i, i + MATCH_BATCH));
    jobs.push(performance.now() - t0);
    matches += outcome.matches;
  }
  const seconds = (performance.now() - started) / 1000;
  jobs.sort((a, b) => a - b);
  const pct = (p: number) => jobs[Math.min(jobs.length - 1, Math.floor(p * jobs.length))]!;
  return { searches: options.searches, events: ids.length, seconds, eventsPerSecond: ids.length / seconds, jobP50Ms: pct(0.5), jobP99Ms: pct(0.99), matches };
}
