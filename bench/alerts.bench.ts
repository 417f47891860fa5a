// Saved-search matching and delivery figures (issue 12), the three of the issue:
//   1. events/s end to end (event recorded → matches stored, with their owners' in-app notifications, which the
//      match job writes in the same transaction): `benchAlertMatching`, the match job's handler over batches of 500
//      recorded events, one after the other in this process (no queue wait), with the per-job p50/p99;
//   2. p99 event → in-app notification under load: `benchAlertPipeline` records events at a set rate (default
//      2,000/s) as ingest does (events and their match jobs of ≤ 500 in one transaction, every 250 ms) while a
//      worker process of the app (`gable serve`, workers in process) runs the match jobs (and the delivery jobs of
//      Instant emails: none here, the bench's searches have no contacts); each event's lag to its last
//      notification, and the rate the whole pipeline sustained (recorded → matched);
//   3. `GET /brands/:brand/saved-searches` p95 with 10,000 searches in the brand: `benchSavedSearchList`.
// The N searches are spread over brands of 10,000 (`Bench alerts k`), each owned by one of 100 users of its brand,
// so notifications fan out over 1,000 feeds as they would. With --keep the searches stay for the next run (tagged
// with their mix and count in `proposed_title`): a run finding exactly its N live searches of that mix reuses them.
// Two mixes of searches, both anchored where listings are (anchors drawn from the listings themselves):
//   - `dense` (the first mix): 60 % squares 2–10 km across, 30 % agents, 10 % offices; price caps drawn from
//     $300k–1.5M whatever the area. On the seed (1,000 agents for 200,000 listings, an office per 10 agents) an
//     office search follows ~2,000 listings, so the office tenth stores half the matches.
//   - `neighbourhood`: what people save on a portal. 70 % a neighbourhood drawn on the map (1–3 km across), 10 % a
//     town-sized area (6–10 km; the seed has no boundaries to name), 18 % an agent, 2 % an office; price bands
//     around the price of the home that drew the anchor (the buyer's budget: max 1–1.5×, often a min 0.6–0.9×),
//     bedrooms and statuses as in `dense`.
import { sql } from 'kysely';
import type { Deps } from '../src/platform/deps.js';
import { SeededRandom } from '../src/modules/listings/listings.random.js';
import { refreshMatchForms } from '../src/modules/saved-searches/matching.forms.js';
import { chunkRowsOf } from '../src/jobs/task.js';
import { matchEvents } from '../src/modules/saved-searches/matching.service.js';
import { MATCH_BATCH, matchEventsTask } from '../src/modules/saved-searches/matching.tasks.js';
import { deliverMatchesTask } from '../src/modules/saved-searches/delivery.tasks.js';
import { QUEUE_SCHEMA } from '../src/jobs/queue.js';
import type { FoundationFixture } from './foundation.bench.js';
import { closedLoop, type LoadResult } from './lib/load.js';
import { startProcess, type ServerProcess } from './lib/processes.js';

export interface AlertsBenchResult {
  searches: number;
  concurrency: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  jobP50Ms: number;
  jobP99Ms: number;
  matches: number;
}

const KM = 1 / 111;
/** Searches per brand: the list target is stated for 10,000 searches in a brand. */
export const SEARCHES_PER_BRAND = 10_000;
const OWNERS_PER_BRAND = 100;

export type AlertMix = 'dense' | 'neighbourhood';

export interface AlertSearches {
  /** The brands holding the searches, 10,000 each (the last may hold fewer). */
  brands: string[];
  reused: boolean;
  seconds: number;
}

/**
 * The N searches of this mix, live: reused when a kept database holds exactly them, otherwise every bench search
 * is retired (soft-deleted searches are out of every index) and N are inserted.
 */
export async function prepareAlertSearches(
  deps: Deps,
  fixture: FoundationFixture,
  options: { searches: number; mix: AlertMix; seed?: number },
): Promise<AlertSearches> {
  const started = performance.now();
  const tag = `bench ${options.mix} ${options.searches} ${options.seed ?? 7}`;
  const brandCount = Math.max(1, Math.ceil(options.searches / SEARCHES_PER_BRAND));
  const brands: string[] = [];
  for (let k = 0; k < brandCount; k++) {
    const name = `Bench alerts ${k}`;
    const found = await deps.db
      .selectFrom('brands')
      .select('id')
      .where('name', '=', name)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    brands.push(
      found?.id ??
        (await deps.db.insertInto('brands').values({ name, parent: null }).returning('id').executeTakeFirstOrThrow())
          .id,
    );
  }
  // The fixture's user (new each run) reads every bench brand's searches; already a member when a second mix runs.
  await deps.db
    .insertInto('memberships')
    .values(brands.map((brand) => ({ user: fixture.userId, brand, acl: ['CRM'], deleted_at: null })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  const live = await sql<{
    n: string;
  }>`select count(*) as n from saved_searches where proposed_title = ${tag} and deleted_at is null`.execute(deps.db);
  // Every run starts with empty feeds: a kept database otherwise grows by ~300,000 notifications a run (the match
  // job writes them since ADR 0038), and a later run writes into larger indexes than an earlier one it is compared
  // with. The bench database holds nothing else that notifies.
  await sql`truncate notification_recipients, push_deliveries, notifications`.execute(deps.db);
  await sql`update notification_counts set total = 0, unseen = 0`.execute(deps.db);
  if (Number(live.rows[0]!.n) === options.searches) {
    await sql`update saved_searches set deleted_at = now() where proposed_title like 'bench%' and proposed_title <> ${tag} and deleted_at is null`.execute(
      deps.db,
    );
    // Forms missing from a database kept before they existed, or retired by an engine change.
    if ((await refreshMatchForms(deps.db)) > 0) await sql`vacuum (analyze) saved_searches`.execute(deps.db);
    return { brands, reused: true, seconds: (performance.now() - started) / 1000 };
  }
  await sql`update saved_searches set deleted_at = now() where proposed_title like 'bench%' and deleted_at is null`.execute(
    deps.db,
  );
  // Owners: 100 users per brand (one password hash for all: nobody signs in as them).
  const passwordHash = (
    await deps.db.selectFrom('users').select('password_hash').where('id', '=', fixture.userId).executeTakeFirstOrThrow()
  ).password_hash;
  const owners: string[][] = [];
  for (let k = 0; k < brandCount; k++) {
    const emails = Array.from({ length: OWNERS_PER_BRAND }, (_, j) => `bench-alerts-${k}-${j}@example.com`);
    await deps.db
      .insertInto('users')
      .values(
        emails.map(
          (email) =>
            ({
              email,
              first_name: 'Alerts',
              last_name: `Owner ${k}`,
              password_hash: passwordHash,
              timezone: 'America/Chicago',
            }) as never,
        ),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
    owners.push(
      (await deps.db.selectFrom('users').select('id').where('email', 'in', emails).execute()).map((u) => u.id),
    );
  }
  const random = new SeededRandom(options.seed ?? 7);
  // Anchors drawn from the listings themselves, so searches sit where listings are.
  const { rows: sample } = await sql<Anchor>`
    select location[0] as x, location[1] as y, list_agent_mui as agent, list_office_mls_id as office, price::float8 as price
    from listings tablesample system (5) where location is not null limit 20000`.execute(deps.db);
  for (let i = 0; i < options.searches; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, options.searches - i) }, (_, j) => {
      const k = Math.floor((i + j) / SEARCHES_PER_BRAND);
      const owner = random.pick(owners[k]!);
      const criteria =
        options.mix === 'dense'
          ? denseCriteria(random, random.pick(sample))
          : neighbourhoodCriteria(random, random.pick(sample));
      return {
        brand: brands[k]!,
        created_by: owner,
        from_user: owner,
        title: null,
        proposed_title: tag,
        criteria: JSON.stringify(criteria),
      };
    });
    await deps.db.insertInto('saved_searches').values(rows).execute();
  }
  // Their match forms, as a search written through the API stores it (matching.forms.ts).
  await refreshMatchForms(deps.db);
  // Vacuumed as autovacuum would have by then: the searches retired above left dead entries in the partial indexes.
  await sql`vacuum (analyze) saved_searches`.execute(deps.db);
  return { brands, reused: false, seconds: (performance.now() - started) / 1000 };
}

/** Events of random listings as ingest records them (PriceDropped), in one insert. */
async function recordEvents(deps: Deps, count: number): Promise<string[]> {
  const { rows: listings } = await sql<{
    id: string;
  }>`select id from listings tablesample system (10) where deleted_at is null limit ${count}`.execute(deps.db);
  return (
    await deps.db
      .insertInto('listing_events')
      .values(listings.map((l) => ({ listing: l.id, type: 'PriceDropped' as const })))
      .returning('id')
      .execute()
  ).map((e) => e.id);
}

/**
 * Figure 1: the match job's handler over batches of 500 recorded events, in this process, `concurrency` jobs at a
 * time (1: one after the other; the task's own concurrency: as a worker runs them, without the delivery jobs).
 */
export async function benchAlertMatching(
  deps: Deps,
  options: { searches: number; events: number; concurrency?: number },
): Promise<AlertsBenchResult> {
  const ids = await recordEvents(deps, options.events);
  const jobs: number[] = [];
  let matches = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < ids.length) {
      const batch = ids.slice(next, next + MATCH_BATCH);
      next += MATCH_BATCH;
      const t0 = performance.now();
      const { outcome } = await matchEvents(deps, batch, chunkRowsOf(matchEventsTask, deps));
      jobs.push(performance.now() - t0);
      matches += outcome.matches;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 1 }, worker));
  const seconds = (performance.now() - started) / 1000;
  // Their delivery jobs wait in the queue (no workers here): marked delivered, so the pipeline's worker process
  // finds them done instead of delivering this backlog under the pipeline's load.
  await sql`update saved_search_matches set delivered_at = now() where event = any(${ids}::uuid[]) and delivered_at is null`.execute(
    deps.db,
  );
  jobs.sort((a, b) => a - b);
  const pct = (p: number) => jobs[Math.min(jobs.length - 1, Math.floor(p * jobs.length))]!;
  return {
    searches: options.searches,
    concurrency: options.concurrency ?? 1,
    events: ids.length,
    seconds,
    eventsPerSecond: ids.length / seconds,
    jobP50Ms: pct(0.5),
    jobP99Ms: pct(0.99),
    matches,
  };
}

export interface AlertPipelineResult {
  offeredPerSecond: number;
  recorded: number;
  /** Recorded → every event matched, over the whole run (the rate the pipeline sustained). */
  matchedPerSecond: number;
  matchLagP50Ms: number;
  matchLagP99Ms: number;
  /** Events with at least one notification, and their lag to the last one. */
  notifiedEvents: number;
  notifyP50Ms: number;
  notifyP99Ms: number;
  notifications: number;
  /** Events not matched, or matches not delivered, when the wait ended. */
  unfinished: number;
  drainSeconds: number;
  warmUpEvents: number;
  warmUpSeconds: number;
}

/**
 * Waits until these events are matched and their matches delivered; answers how many were not when time ran out.
 * While jobs of the two tasks are waiting or running it only counts those (the queue's small table): counting this
 * run's ~80,000 matches by event, every 200 ms as it first did, kept a database backend busy a fifth of the time
 * the pipeline ran, on the two cores it measures. The exact count runs once the queue is empty (and every 5 s). The latencies come
 * from the rows' own timestamps, not from when this looked.
 */
async function settled(deps: Deps, ids: string[], maxWaitSeconds: number): Promise<number> {
  const deadline = Date.now() + maxWaitSeconds * 1000;
  for (let look = 1; ; look++) {
    const { rows: jobs } = await sql<{ n: string }>`select count(*) as n from ${sql.id(QUEUE_SCHEMA, 'job')}
      where name in (${matchEventsTask.name}, ${deliverMatchesTask.name}) and state in ('created', 'retry', 'active')`.execute(
      deps.db,
    );
    // Also every 5 s: a job left active by an earlier, killed worker would otherwise hold this until the deadline.
    if (Number(jobs[0]!.n) === 0 || look % 20 === 0 || Date.now() > deadline) {
      const { rows } = await sql<{ n: string }>`
        select (select count(*) from listing_events where id = any(${ids}::uuid[]) and matched_at is null)
             + (select count(*) from saved_search_matches where event = any(${ids}::uuid[]) and delivered_at is null) as n`.execute(
        deps.db,
      );
      const unfinished = Number(rows[0]!.n);
      if (unfinished === 0 || Date.now() > deadline) return unfinished;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Events of these listings recorded with their match jobs (as ingest does), then waited for. */
async function recordAndWait(
  deps: Deps,
  listings: string[],
  maxWaitSeconds: number,
): Promise<{ events: number; seconds: number }> {
  const started = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < listings.length; i += 1000) {
    await deps.db.transaction().execute(async (trx) => {
      const recorded = (
        await trx
          .insertInto('listing_events')
          .values(listings.slice(i, i + 1000).map((listing) => ({ listing, type: 'PriceDropped' as const })))
          .returning('id')
          .execute()
      ).map((e) => e.id);
      for (let j = 0; j < recorded.length; j += MATCH_BATCH)
        await deps.queue.enqueue(trx, matchEventsTask, { events: recorded.slice(j, j + MATCH_BATCH) });
      ids.push(...recorded);
    });
  }
  if (await settled(deps, ids, maxWaitSeconds))
    throw new Error('alerts pipeline: the warm-up events were not all matched and delivered in time');
  return { events: ids.length, seconds: (performance.now() - started) / 1000 };
}

/**
 * Figure 2: events recorded at `rate` per second for `seconds` (a transaction every 250 ms holding the events and
 * their match jobs, as ingest commits them) while a worker process runs the jobs; then waits until every event is
 * matched and every match delivered (or `maxWaitSeconds`).
 */
export async function benchAlertPipeline(
  deps: Deps,
  options: {
    rate: number;
    seconds: number;
    env: Record<string, string>;
    workerPort: number;
    maxWaitSeconds?: number;
    warmUpEvents?: number;
    workers?: number;
  },
): Promise<AlertPipelineResult> {
  const TICK_MS = 250;
  const perTick = Math.max(1, Math.round((options.rate * TICK_MS) / 1000));
  const ticks = Math.max(1, Math.round((options.seconds * 1000) / TICK_MS));
  const { rows: pool } = await sql<{
    id: string;
  }>`select id from listings tablesample system (10) where deleted_at is null limit ${Math.min(200_000, perTick * ticks + (options.warmUpEvents ?? 4000))}`.execute(
    deps.db,
  );
  // A kept database may hold the backlog of an earlier run (unmatched events, undelivered matches, their jobs):
  // settled here, so the worker process works only on this run's events.
  await sql`update listing_events set matched_at = now() where matched_at is null`.execute(deps.db);
  await sql`update saved_search_matches set delivered_at = now() where delivered_at is null`.execute(deps.db);
  await sql`delete from ${sql.id(QUEUE_SCHEMA, 'job')} where name in (${matchEventsTask.name}, ${deliverMatchesTask.name}) and state in ('created', 'retry')`.execute(
    deps.db,
  );
  // One worker process by default; more (--alert-workers) share the jobs as separate processes would in production.
  const workers: ServerProcess[] = [];
  for (let i = 0; i < (options.workers ?? 1); i++)
    workers.push(
      await startProcess(
        ['bin/gable.js', 'serve'],
        { ...options.env, WORKERS_IN_PROCESS: 'true' },
        options.workerPort + i,
      ),
    );
  try {
    // Warm-up, not counted: a new process reads each shape's text and parameter types once (then kept).
    const warm = await recordAndWait(
      deps,
      pool.slice(0, options.warmUpEvents ?? 4000).map((l) => l.id),
      options.maxWaitSeconds ?? 600,
    );
    const ids: string[] = [];
    const started = performance.now();
    for (let t = 0; t < ticks; t++) {
      const due = started + t * TICK_MS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const listings = Array.from(
        { length: perTick },
        (_, j) => pool[(warm.events + t * perTick + j) % pool.length]!.id,
      );
      await deps.db.transaction().execute(async (trx) => {
        const recorded = (
          await trx
            .insertInto('listing_events')
            .values(listings.map((listing) => ({ listing, type: 'PriceDropped' as const })))
            .returning('id')
            .execute()
        ).map((e) => e.id);
        for (let i = 0; i < recorded.length; i += MATCH_BATCH)
          await deps.queue.enqueue(trx, matchEventsTask, { events: recorded.slice(i, i + MATCH_BATCH) });
        ids.push(...recorded);
      });
    }
    const offeredSeconds = (performance.now() - started) / 1000;
    const unfinished = await settled(deps, ids, options.maxWaitSeconds ?? 600);
    const drainSeconds = (performance.now() - started) / 1000 - offeredSeconds;
    const { rows: events } = await sql<{ matched_ms: number | null; first: Date; last: Date | null }>`
      select extract(epoch from matched_at - created_at) * 1000 as matched_ms, created_at as first, matched_at as last
      from listing_events where id = any(${ids}::uuid[])`.execute(deps.db);
    const { rows: notified } = await sql<{ ms: number; n: string }>`
      select extract(epoch from max(n.created_at) - e.created_at) * 1000 as ms, count(*) as n
      from listing_events e
      join notifications n on n.data->>'event' = e.id::text and n.created_at >= e.created_at
      where e.id = any(${ids}::uuid[])
      group by e.id, e.created_at`.execute(deps.db);
    const firstAt = Math.min(...events.map((e) => e.first.getTime()));
    const lastAt = Math.max(...events.map((e) => (e.last ?? e.first).getTime()));
    const matchLags = events
      .flatMap((e) => (e.matched_ms === null ? [] : [Number(e.matched_ms)]))
      .sort((a, b) => a - b);
    const notifyLags = notified.map((r) => Number(r.ms)).sort((a, b) => a - b);
    const at = (values: number[], p: number) =>
      values[Math.min(values.length - 1, Math.floor(p * values.length))] ?? NaN;
    return {
      offeredPerSecond: ids.length / offeredSeconds,
      recorded: ids.length,
      matchedPerSecond: matchLags.length / ((lastAt - firstAt) / 1000),
      matchLagP50Ms: at(matchLags, 0.5),
      matchLagP99Ms: at(matchLags, 0.99),
      notifiedEvents: notified.length,
      notifyP50Ms: at(notifyLags, 0.5),
      notifyP99Ms: at(notifyLags, 0.99),
      notifications: notified.reduce((sum, r) => sum + Number(r.n), 0),
      unfinished,
      drainSeconds,
      warmUpEvents: warm.events,
      warmUpSeconds: warm.seconds,
    };
  } finally {
    for (const worker of workers) await worker.stop();
  }
}

/** Figure 3: the brand's list, first page (50, newest first, exact total), closed loop. */
export async function benchSavedSearchList(
  url: string,
  fixture: FoundationFixture,
  brand: string,
  options: { requests: number; concurrency: number },
): Promise<LoadResult> {
  const headers = { authorization: `Bearer ${fixture.accessToken}` };
  const probe = await fetch(`${url}/brands/${brand}/saved-searches`, { headers });
  if (!probe.ok)
    throw new Error(
      `GET /brands/:brand/saved-searches answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`,
    );
  const total = ((await probe.json()) as { info: { total: number } }).info.total;
  return closedLoop(
    `GET /brands/:brand/saved-searches (${total} in the brand) [c=${options.concurrency}]`,
    url,
    () => ({ method: 'GET', path: `/brands/${brand}/saved-searches`, headers }),
    options,
  );
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
  return [
    [at.x - r, at.y - r],
    [at.x + r, at.y - r],
    [at.x + r, at.y + r],
    [at.x - r, at.y + r],
    [at.x - r, at.y - r],
  ].map(([longitude, latitude]) => ({ longitude, latitude }));
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
