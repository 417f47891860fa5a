// Saved-search matching figures (issue 12): N saved searches against the seeded listings; listing events recorded
// and matched in jobs of 500, as ingest enqueues them. Measures events/s end to end (event recorded → matches
// stored), the per-job latency (p50/p99), and the matches stored. In process: the job handler itself, no queue wait.
// Two mixes of searches, both anchored where listings are (anchors drawn from the listings themselves):
//   - `dense` (the first mix): 60 % squares 2–10 km across, 30 % agents, 10 % offices; price caps drawn from
//     $300k–1.5M whatever the area. On the seed (1,000 agents for 200,000 listings, an office per 10 agents) an
//     office search follows ~2,000 listings, so the office tenth stores half the matches.
//   - `neighbourhood`: what people save on a portal. 70 % a neighbourhood drawn on the map (1–3 km across), 10 % a
//     town-sized area (6–10 km; the seed has no boundaries to name), 18 % an agent, 2 % an office; price bands
//     around the price of the home that drew the anchor (the buyer's budget: max 1–1.5×, often a min 0.6–0.9×),
//     bedrooms and statuses as in `dense`.
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

export type AlertMix = 'dense' | 'neighbourhood';

export async function benchAlertMatching(deps: Deps, fixture: FoundationFixture, options: { searches: number; events: number; mix: AlertMix; seed?: number }): Promise<AlertsBenchResult> {
  const random = new SeededRandom(options.seed ?? 7);
  const brand = (await deps.db.selectFrom('memberships').select('brand').where('user', '=', fixture.userId).executeTakeFirstOrThrow()).brand;
  // Anchors drawn from the listings themselves, so searches sit where listings are.
  const { rows: sample } = await sql<{ x: number; y: number; agent: string | null; office: string | null; price: number | null }>`
    select location[0] as x, location[1] as y, list_agent_mui as agent, list_office_mls_id as office, price::float8 as price
    from listings tablesample system (5) where location is not null limit 20000`.execute(deps.db);
  const criteria = Array.from({ length: options.searches }, () => (options.mix === 'dense' ? denseCriteria(random, random.pick(sample)) : neighbourhoodCriteria(random, random.pick(sample))));
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
  // Retired, so a next mix in the same run starts from no searches (soft-deleted searches are out of every index).
  await sql`update saved_searches set deleted_at = now() where deleted_at is null`.execute(deps.db);
  return { searches: options.searches, events: ids.length, seconds, eventsPerSecond: ids.length / seconds, jobP50Ms: pct(0.5), jobP99Ms: pct(0.99), matches };
}

interface Anchor {
  x: number;
  y: number;
  agent: string | null;
  office: string | null;
  price: number | null;
}

const square = (at: Anchor, halfSideKm: number) => {
  const r = halfSideKm * KM;
  return [[at.x - r, at.y - r], [at.x + r, at.y - r], [at.x + r, at.y + r], [at.x - r, at.y + r], [at.x - r, at.y - r]].map(([longitude, latitude]) => ({ longitude, latitude }));
};

function denseCriteria(random: SeededRandom, at: Anchor): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  const roll = random.next();
  if (roll < 0.6 || !at.agent) c.points = square(at, random.between(1, 5));
  else if (roll < 0.9) c.agents = [at.agent];
  else c.offices = [at.office ?? at.agent];
  if (random.chance(0.7)) c.maximum_price = 100_000 * random.integer(3, 15);
  if (random.chance(0.3)) c.minimum_price = 100_000 * random.integer(1, 3);
  if (random.chance(0.5)) c.minimum_bedrooms = random.integer(1, 4);
  if (random.chance(0.3)) c.listing_statuses = ['Active'];
  return c;
}

function neighbourhoodCriteria(random: SeededRandom, at: Anchor): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  const roll = random.next();
  if (roll < 0.7 || !at.agent) c.points = square(at, random.between(0.5, 1.5));
  else if (roll < 0.8) c.points = square(at, random.between(3, 5));
  else if (roll < 0.98) c.agents = [at.agent];
  else c.offices = [at.office ?? at.agent];
  const budget = at.price && at.price > 0 ? at.price : 300_000;
  const round = (value: number) => Math.max(10_000, Math.round(value / 10_000) * 10_000);
  if (random.chance(0.8)) c.maximum_price = round(budget * random.between(1, 1.5));
  if (random.chance(0.5)) c.minimum_price = round(budget * random.between(0.6, 0.9));
  if (random.chance(0.5)) c.minimum_bedrooms = random.integer(1, 4);
  if (random.chance(0.3)) c.listing_statuses = ['Active'];
  return c;
}
