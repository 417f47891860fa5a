// `npm run bench`: starts the servers on PostgreSQL and measures, in one run, the baseline and Gable's
// endpoints, printing req/s, latencies and the ratio of each to the baseline measured in the same run.
//   npm run bench -- [--duration 10] [--only startup,foundation,boundaries,listings,contacts,deals,print,emails,triggers,extmail,notifications,webhooks,alerts,pages,scale-out] [--listings 1000000] [--contacts 100000] [--deals 50000] [--campaigns 10000] [--renders 20] [--recipients 20000] [--extmail-contacts 20000] [--notifications 10000] [--webhook-rate 1000] [--webhook-seconds 20] [--webhook-hanging-rate 2] [--saved-searches 100000] [--alert-events 10000] [--alert-mix dense,neighbourhood] [--alert-rate 2000] [--alert-seconds 10] [--alert-warm-up 4000] [--alert-workers 1] [--startup-runs 5] [--scale-out-wait 240] [--keep]
// `listings` measures ingest over HTTP, then seeds up to --listings synthetic listings and runs the search
// scenarios on them (1,000,000 takes a few minutes to seed).
// `scale-out` (bench/scale-out.bench.ts: serve and worker processes killed and replaced under load) runs only when
// --only names it; its load lasts 1.5 × --duration (60 for the issue's figure).
// --keep keeps the bench database after the run, and a run with --keep finds it again: seeding is skipped for what
// it already holds (the alerts suite seeds only missing listings and reuses its saved searches).
// `pages` (bench/pages.bench.ts) measures the public listing page GET /l/:listing against GET /listings/:id in the
// same run and the alert results page GET /a/:token, at c=4 (--pages-requests each); alone, it seeds --listings
// itself as `alerts` does (1,000,000 for the issue's figure).
// DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres); the bench
// creates and drops its own database there.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { closeDeps, createDeps, startJobs } from '../src/deps.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { DEFAULT_SERVER_URL, dropDatabase, recreateDatabase, reuseOrCreateDatabase } from './lib/database.js';
import type { LoadResult } from './lib/load.js';
import { startProcess } from './lib/processes.js';
import { sql } from 'kysely';
import { seedListings } from '../src/modules/listings/listings.seed.js';
import { createOAuthClient } from '../src/modules/auth/clients.service.js';
import { issueNewFamily } from '../src/modules/auth/tokens.service.js';
import { benchBoundaries, prepareBoundariesBench } from './boundaries.bench.js';
import { benchListingIngestHttp } from './listings-ingest.bench.js';
import { benchListingSearch, createListingSearchFixture } from './listing-search.bench.js';
import { benchContacts } from './contacts.bench.js';
import { benchDeals } from './deals.bench.js';
import { benchPrint } from './print.bench.js';
import { benchEmails } from './emails.bench.js';
import { benchBrandTriggerPlanning } from './triggers.bench.js';
import { benchExtmailSync } from './extmail.bench.js';
import { benchNotifications } from './notifications.bench.js';
import { benchWebhooks, HANGING_RATE, printWebhookTable } from './webhooks.bench.js';
import { benchStartup, printStartupTable } from './startup.bench.js';
import { benchScaleOut, printScaleOutCounts } from './scale-out.bench.js';
import { matchEventsTask } from '../src/modules/saved-searches/matching.tasks.js';
import { benchPages } from './pages.bench.js';
import { benchAlertMatching, benchAlertPipeline, benchSavedSearchList, prepareAlertSearches } from './alerts.bench.js';
import {
  argon2MillisecondsPerHash,
  argon2VerifiesPerSecond,
  authorizationCodePool,
  benchBaseline,
  benchCodeExchange,
  benchIntrospect,
  benchPasswordGrant,
  benchRefreshGrant,
  benchUsersSelf,
  createFoundationFixture,
  createIntrospectingClient,
  refreshTokens,
} from './foundation.bench.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    listings: { type: 'string', default: '1000000' },
    contacts: { type: 'string', default: '100000' },
    deals: { type: 'string', default: '50000' },
    campaigns: { type: 'string', default: '10000' },
    renders: { type: 'string', default: '20' },
    recipients: { type: 'string', default: '20000' },
    'extmail-contacts': { type: 'string', default: '20000' },
    notifications: { type: 'string', default: '10000' },
    'stream-samples': { type: 'string', default: '200' },
    'webhook-rate': { type: 'string', default: '1000' },
    'webhook-seconds': { type: 'string', default: '20' },
    // Events a second to another brand's receiver that never answers, in the "one hanging" scenario.
    'webhook-hanging-rate': { type: 'string', default: String(HANGING_RATE) },
    'saved-searches': { type: 'string', default: '100000' },
    'alert-events': { type: 'string', default: '10000' },
    // Saved-search mixes measured one after the other (bench/alerts.bench.ts says what each holds).
    'alert-mix': { type: 'string', default: 'dense,neighbourhood' },
    // The pipeline figure: listing events recorded per second, for this many seconds, with the workers running.
    'alert-rate': { type: 'string', default: '2000' },
    'alert-seconds': { type: 'string', default: '10' },
    // Events matched and delivered first, not counted (the worker process's compiled WHEREs warm up).
    'alert-warm-up': { type: 'string', default: '4000' },
    'alert-workers': { type: 'string', default: '1' },
    // Runs of each start-up scenario (medians): a first start seeds the demo world, so each run takes a while.
    'startup-runs': { type: 'string', default: '5' },
    // The scale-out suite's longest wait, after its load, for every job and delivery to be done.
    'scale-out-wait': { type: 'string', default: '240' },
    'search-requests': { type: 'string', default: '300' },
    // Requests of each pages scenario (closed loop at c=4; the API and the listing page run twice each).
    'pages-requests': { type: 'string', default: '4000' },
    // Closed-loop concurrencies of the search scenarios. On a 2-core machine the load generator, Node and
    // PostgreSQL share the cores, so c=4 measures queueing as much as a request's own cost: both are shown.
    'search-concurrency': { type: 'string', default: '1,4' },
  },
});
const duration = Number(args.duration);
const listingCount = Number(args.listings);
const WARM_UP_SECONDS = 2;
const searchConcurrencies = args['search-concurrency'].split(',').map(Number);
const withConcurrency =
  (c: number) =>
  (r: LoadResult): LoadResult => ({ ...r, name: `${r.name} [c=${c}]` });
const INGEST_COUNT = Math.min(50_000, listingCount);
// The map scenarios look at one metro of the seeded data (Dallas holds ~15 % of `gable seed listings`).
const DALLAS = { longitude: -96.797, latitude: 32.7767, km: 30 };
const only = args.only ? new Set(args.only.split(',')) : null;
const wants = (suite: string) => !only || only.has(suite);
/** Suites that kill processes or wait long run only when named. */
const named = (suite: string) => only?.has(suite) === true;

// The servers run the compiled dist/ (bin/gable.js refuses a stale one): build it first when src/ changed since.
const built = spawnSync(process.execPath, ['scripts/build.js', '--if-stale'], {
  cwd: fileURLToPath(new URL('../', import.meta.url)),
  stdio: 'inherit',
});
if (built.status !== 0) throw new Error(`the build failed (exit ${built.status})`);

const serverUrl = process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
// BENCH_DATABASE: another name when several benches share one PostgreSQL server (each drops and recreates its own).
const databaseName = process.env.BENCH_DATABASE ?? 'gable_bench';
const { url: databaseUrl, reused } = args.keep
  ? await reuseOrCreateDatabase(serverUrl, databaseName)
  : { url: await recreateDatabase(serverUrl, databaseName), reused: false };
const secretKey = randomBytes(32).toString('hex');
const env = { DATABASE_URL: databaseUrl, SECRET_KEY: secretKey, LOG_LEVEL: 'warn', WORKERS_IN_PROCESS: 'false' };

const config = loadConfig(env);
const deps = await createDeps(config);
await migrateToLatest(deps.db);

/** The job queues, created once for the suites that enqueue (WORKERS_IN_PROCESS=false: no workers run here). */
let queueStarted: Promise<void> | null = null;
const queueReady = () => (queueStarted ??= startJobs(deps));

const results: LoadResult[] = [];
/** Keeps a measured row and prints it at once (stderr): a run cut short still shows what it measured. */
function record(...rows: LoadResult[]): void {
  for (const row of rows) {
    results.push(row);
    const cpu = row.cpuMs === undefined ? '' : `, ${row.cpuMs.toFixed(3)} ms CPU/req`;
    console.error(`measured ${row.name}: ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms${cpu}`);
  }
}
const notes: string[] = [];
if (reused) notes.push(`bench database ${databaseName} kept from an earlier --keep run`);
// BENCH_PORT: another first port (baseline; Gable on the next; workers of the suites on the four after) when
// several benches run on one machine. BENCH_START_SECONDS: how long a server may take to start (default 60).
const firstPort = Number(process.env.BENCH_PORT ?? 3901);
const baselineServer = await startProcess(['bin/run-ts.js', 'bench/servers/baseline.ts'], env, firstPort);
const gable = await startProcess(['bin/gable.js', 'serve'], env, firstPort + 1);

try {
  const fixture = await createFoundationFixture(deps);
  // Two seconds of load on each server first, not counted: JIT and connection set-up would otherwise land in
  // whichever scenario happens to run first (the /users/self ratio swung 0.54–0.82 between runs without it).
  await benchBaseline(baselineServer.url, fixture.userId, WARM_UP_SECONDS);
  await benchUsersSelf(gable.url, fixture, WARM_UP_SECONDS);
  const baseline = await benchBaseline(baselineServer.url, fixture.userId, duration);
  record(baseline);
  if (wants('foundation')) {
    const usersSelf = await benchUsersSelf(gable.url, fixture, duration);
    record(usersSelf);
    // Issue 33: introspection ≥ 0.8× GET /users/self, both bearer look-ups of the same token in the same run.
    const introspect = await benchIntrospect(gable.url, fixture, await createIntrospectingClient(deps), duration);
    record(introspect);
    notes.push(
      `introspection: ${(introspect.rps / usersSelf.rps).toFixed(2)}× GET /users/self req/s` +
        cpuRatioNote(introspect, usersSelf, 'CPU per request'),
    );
    record(...(await codeExchanges(Math.max(1000, duration * 300))));
    record(
      await benchRefreshGrant(gable.url, fixture, await refreshTokens(deps, fixture, Math.max(2000, duration * 600))),
    );
    // A second of logins first, not counted: the grant's own code (argon2 binding, limiter, token insert) is not
    // on the warm-up's path above, and its first runs are compiled while they are timed (~10 % of a 5 s run).
    await benchPasswordGrant(gable.url, fixture, 1);
    // autocannon ends a load with requests still in flight, and the server finishes them: until their refunds,
    // their attempt claims count on the account as failures, and with the measured load's 4 they made up to 8
    // unsettled claims, past the account's 4 free consecutive ones (a run answered 5 logins with 429).
    await new Promise((resolve) => setTimeout(resolve, 500));
    const passwordGrant = await benchPasswordGrant(gable.url, fixture, Math.min(duration, 5));
    record(passwordGrant);
    notes.push(`argon2id hash (m=19 MiB, t=2, p=1): ${(await argon2MillisecondsPerHash()).toFixed(1)} ms per hash`);
    const verifies = await argon2VerifiesPerSecond();
    notes.push(
      `argon2id verify on both cores (4 in flight): ${verifies.toFixed(0)}/s; the password grant ran at ` +
        `${(passwordGrant.rps / verifies).toFixed(2)}× that rate`,
    );
  }
  if (wants('startup')) {
    // Early, before the suites that load the machine and the bench database.
    printStartupTable(await benchStartup({ runs: Number(args['startup-runs']), databaseUrl, secretKey }));
  }
  if (wants('boundaries')) {
    const count = await prepareBoundariesBench(deps);
    for (const c of searchConcurrencies) {
      record(
        withConcurrency(c)(await benchBoundaries({ url: gable.url, accessToken: fixture.accessToken, concurrency: c })),
      );
    }
    notes.push(`boundaries: ${count} in the catalogue (countries, US states, US counties)`);
  }
  if (wants('listings')) {
    const feed = await feedToken();
    const ingest = await benchListingIngestHttp(gable.url, feed, { count: INGEST_COUNT, concurrency: 2 });
    notes.push(
      `ingest: ${ingest.listings} new listings over HTTP (POST /mls/:mls/listings, 1,000 per body, 2 in flight) in ${ingest.seconds.toFixed(1)} s = ${Math.round(ingest.perSecond)} listings/s, ${ingest.events} events`,
    );
    const seeded = await seedAndVacuum(listingCount - INGEST_COUNT);
    notes.push(
      `search: ${listingCount} listings (${seeded.created} seeded in ${seeded.seconds.toFixed(0)} s); map scenarios in a 60 km square around Dallas; closed loop, c = requests in flight`,
    );
    const searchFixture = await createListingSearchFixture(deps, { around: DALLAS });
    for (const c of searchConcurrencies) {
      const page = await benchListingSearch(gable.url, searchFixture, {
        requests: Number(args['search-requests']),
        concurrency: c,
      });
      record(...page.map(withConcurrency(c)));
    }
  }
  if (wants('contacts')) {
    const contacts = await benchContacts(deps, gable.url, fixture, {
      contacts: Number(args.contacts),
      csvRows: 20_000,
      requests: Number(args['search-requests']),
    });
    record(...contacts.results);
    notes.push(...contacts.notes);
  }
  if (wants('deals')) {
    const deals = await benchDeals(deps, gable.url, fixture, {
      deals: Number(args.deals),
      requests: Number(args['search-requests']),
      concurrencies: searchConcurrencies,
    });
    record(...deals.results);
    notes.push(...deals.notes);
  }
  if (wants('print')) {
    const print = await benchPrint(deps, gable.url, fixture, {
      campaigns: Number(args.campaigns),
      renders: Number(args.renders),
      requests: Number(args['search-requests']),
    });
    record(...print.results);
    notes.push(...print.notes);
  }
  if (wants('emails')) {
    const emails = await benchEmails(deps, gable.url, env, fixture, {
      contacts: Number(args.recipients),
      workerPort: firstPort + 2,
    });
    notes.push(...emails.notes);
  }
  if (wants('triggers')) {
    await queueReady(); // a sweep enqueues the campaigns' jobs (no workers here: they wait in the queue)
    notes.push(...(await benchBrandTriggerPlanning(deps, fixture, { contacts: Number(args.contacts) })).notes);
  }
  if (wants('extmail')) {
    const extmail = await benchExtmailSync(deps, env, { contacts: Number(args['extmail-contacts']) });
    notes.push(...extmail.notes);
  }
  if (wants('notifications')) {
    const notifications = await benchNotifications(deps, gable.url, fixture, {
      notifications: Number(args.notifications),
      duration,
      streamSamples: Number(args['stream-samples']),
      env,
      workerPort: firstPort + 4,
    });
    record(...notifications.results);
    notes.push(...notifications.notes);
  }
  if (wants('webhooks')) {
    const worker = await startProcess(
      ['bin/gable.js', 'serve'],
      { ...env, WORKERS_IN_PROCESS: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' },
      firstPort + 3,
    );
    try {
      const webhooks = await benchWebhooks(deps, {
        rate: Number(args['webhook-rate']),
        seconds: Number(args['webhook-seconds']),
        hangingRate: Number(args['webhook-hanging-rate']),
      });
      printWebhookTable(webhooks.figures);
      notes.push(...webhooks.notes);
    } finally {
      await worker.stop();
    }
  }
  if (wants('alerts')) {
    // Matching needs listings: the `listings` suite seeds them; alone, this suite seeds --listings itself (on a
    // kept database, only the listings missing).
    if (!wants('listings')) await seedMissingListings('alerts');
    await queueReady(); // matching enqueues delivery jobs (no workers here: they wait in the queue)
    const load = async () =>
      (await readFile('/proc/loadavg', 'utf8').catch(() => '?')).split(' ').slice(0, 3).join(' ');
    const searches = Number(args['saved-searches']);
    for (const mix of args['alert-mix'].split(',')) {
      if (mix !== 'dense' && mix !== 'neighbourhood')
        throw new Error(`--alert-mix: unknown mix ${mix} (dense, neighbourhood)`);
      const prepared = await prepareAlertSearches(deps, fixture, { searches, mix });
      notes.push(
        `alerts (${mix} mix): ${searches} saved searches in ${prepared.brands.length} brands ${prepared.reused ? 'kept from an earlier run' : `inserted in ${prepared.seconds.toFixed(0)} s`}`,
      );
      for (const concurrency of [1, matchEventsTask.concurrency ?? 1]) {
        const r = await benchAlertMatching(deps, { searches, events: Number(args['alert-events']), concurrency });
        notes.push(
          `alerts (${mix} mix), 1. job handler in process, ${r.concurrency === 1 ? 'one job at a time' : `${r.concurrency} jobs at a time (the task's concurrency)`}: ${r.searches} saved searches × ${listingCount} listings: ${r.events} events matched in ${r.seconds.toFixed(1)} s = ${Math.round(r.eventsPerSecond)} events/s (jobs of 500: p50 ${r.jobP50Ms.toFixed(0)} ms, p99 ${r.jobP99Ms.toFixed(0)} ms), ${r.matches} matches (${(r.matches / r.events).toFixed(1)} per event); load ${await load()}`,
        );
      }
      const p = await benchAlertPipeline(deps, {
        rate: Number(args['alert-rate']),
        seconds: Number(args['alert-seconds']),
        warmUpEvents: Number(args['alert-warm-up']),
        workers: Number(args['alert-workers']),
        env,
        workerPort: firstPort + 4,
      });
      notes.push(
        `alerts (${mix} mix), 2. pipeline (${Number(args['alert-workers']) === 1 ? 'worker process' : `${args['alert-workers']} worker processes`}): ${p.recorded} events recorded at ${Math.round(p.offeredPerSecond)}/s → matched at ${Math.round(p.matchedPerSecond)} events/s end to end (lag p50 ${(p.matchLagP50Ms / 1000).toFixed(2)} s, p99 ${(p.matchLagP99Ms / 1000).toFixed(2)} s); event → in-app notification p50 ${(p.notifyP50Ms / 1000).toFixed(2)} s, p99 ${(p.notifyP99Ms / 1000).toFixed(2)} s over ${p.notifiedEvents} events (${p.notifications} notifications); drained ${p.drainSeconds.toFixed(1)} s after the last event (after a warm-up of ${p.warmUpEvents} events in ${p.warmUpSeconds.toFixed(0)} s)${p.unfinished ? `, ${p.unfinished} events or matches NOT done when the wait ended` : ''}; load ${await load()}`,
      );
      for (const c of searchConcurrencies)
        record(
          await benchSavedSearchList(gable.url, fixture, prepared.brands[0]!, {
            requests: Number(args['search-requests']),
            concurrency: c,
          }),
        );
    }
  }
  if (wants('pages')) {
    // The pages show seeded listings: seeded here unless the `listings` or `alerts` suite did it already.
    if (!wants('listings') && !wants('alerts')) await seedMissingListings('pages');
    const pages = await benchPages(deps, gable.url, fixture, {
      requests: Number(args['pages-requests']),
      concurrency: 4,
    });
    record(...pages.results);
    notes.push(...pages.notes.map((note) => `${note}; load ${loadNow()}`));
  }
  if (named('scale-out')) {
    const scaleOut = await benchScaleOut(deps, fixture, {
      duration,
      waitSeconds: Number(args['scale-out-wait']),
      env,
      port: firstPort + 6,
      feedToken: await feedToken(),
      baselineUrl: baselineServer.url,
    });
    record(...scaleOut.results);
    notes.push(...scaleOut.notes);
    printScaleOutCounts(scaleOut.counts);
  }
  printTable(results, baseline);
  for (const note of notes) console.log(note);
} finally {
  await gable.stop();
  await baselineServer.stop();
  await closeDeps(deps);
  if (!args.keep) await dropDatabase(serverUrl, databaseName);
}

/**
 * Issue 33: the authorization-code exchange without and with an id_token (RS256, the default alg, and ES256), each
 * pool made before any is timed. A first small pool of each signs the first keys (made at first need) and warms up.
 */
async function codeExchanges(count: number): Promise<LoadResult[]> {
  const fixture = await createFoundationFixture(deps);
  for (const openid of [false, true])
    await benchCodeExchange(gable.url, await authorizationCodePool(deps, fixture, { count: 200, openid }));
  const plain = await authorizationCodePool(deps, fixture, { count, openid: false });
  const rs256 = await authorizationCodePool(deps, fixture, { count, openid: true, alg: 'RS256' });
  const es256 = await authorizationCodePool(deps, fixture, { count, openid: true, alg: 'ES256' });
  const without = await benchCodeExchange(gable.url, plain);
  const rows = [without, await benchCodeExchange(gable.url, rs256), await benchCodeExchange(gable.url, es256)];
  for (const row of rows.slice(1))
    notes.push(
      `${row.name}: ${(without.rps / row.rps).toFixed(2)}× the time of one without (req/s)` +
        cpuRatioNote(without, row, 'CPU per request (target ≤ 1.2×)', true),
    );
  return rows;
}

/** `, a/b× the CPU per request` (inverted: b/a), or nothing when either is unmetered. */
function cpuRatioNote(a: LoadResult, b: LoadResult, label: string, inverted = false): string {
  if (!a.cpuMs || !b.cpuMs) return '';
  const [top, bottom] = inverted ? [b.cpuMs, a.cpuMs] : [a.cpuMs, b.cpuMs];
  return `, ${(top / bottom).toFixed(2)}× the ${label} (${top.toFixed(3)} vs ${bottom.toFixed(3)} ms)`;
}

/**
 * Seeds `count` listings, then vacuums. Index-only scans need the visibility map, and the planner needs statistics
 * of the fresh table. The stored records (~2 GB after 1M inserts) too: otherwise the scenarios' first reads set
 * their hint bits and write the pages back, and where autovacuum runs (not on this machine's server) its pass over
 * them, due after the bulk load, would run during the scenarios (a deployment meets both once after an import, not
 * on every search).
 */
async function seedAndVacuum(count: number): ReturnType<typeof seedListings> {
  const seeded = await seedListings(deps, { count, concurrency: 2, onProgress: progress('seeding listings') });
  await sql`vacuum (analyze) listings`.execute(deps.db);
  await sql`vacuum (analyze) listing_records`.execute(deps.db);
  return seeded;
}

/** Seeds the listings missing to reach --listings (a kept database keeps what it holds), for a suite that needs them. */
async function seedMissingListings(suite: string): Promise<void> {
  const have = Number(
    (await sql<{ n: string }>`select count(*) as n from listings where deleted_at is null`.execute(deps.db)).rows[0]!.n,
  );
  if (have < listingCount) {
    const seeded = await seedAndVacuum(listingCount - have);
    notes.push(`${suite}: ${seeded.created} listings seeded in ${seeded.seconds.toFixed(0)} s (${have} kept)`);
  } else notes.push(`${suite}: ${have} listings kept from an earlier run`);
}

function loadNow(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/** A client-credentials token of a first-party client: what an MLS feed uses to ingest. */
async function feedToken(): Promise<string> {
  const client = await createOAuthClient(deps.db, { name: 'Bench MLS feed', kind: 'first_party' });
  const issued = await issueNewFamily(deps.db, deps.clock, {
    user: null,
    client: client.id,
    brand: null,
    grantType: 'client_credentials',
    mfaValidated: false,
    withRefreshToken: false,
  });
  return issued.access_token;
}

function progress(label: string): (written: number, total: number) => void {
  let last = 0;
  return (written, total) => {
    if (written - last < total / 10 && written < total) return;
    last = written;
    console.error(`${label}: ${written} / ${total}`);
  };
}

function printTable(rows: LoadResult[], baseline: LoadResult): void {
  const fmt = (n: number | undefined, digits = 1) => (n === undefined ? '–' : n.toFixed(digits));
  // × baseline CPU: the baseline's CPU per request over the scenario's (server + its database sessions), the
  // figure that holds still when other work on the machine moves req/s (bench/lib/cpu.ts).
  const cpuSplit = (r: LoadResult) =>
    r.cpuMs === undefined
      ? '–'
      : `${fmt(r.cpuMs, 3)} (${fmt(r.serverCpuMs, 3)} + ${fmt(r.cpuMs - (r.serverCpuMs ?? 0), 3)})`;
  const cpuRatio = (r: LoadResult) => (r.cpuMs && baseline.cpuMs ? (baseline.cpuMs / r.cpuMs).toFixed(2) : '–');
  console.log(
    '\n| scenario | requests | non-2xx | req/s | p50 ms | p95 ms | p99 ms | × baseline req/s | CPU ms/req (server + database) | × baseline CPU |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.requests} | ${r.errors} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${(r.rps / baseline.rps).toFixed(2)} | ${cpuSplit(r)} | ${cpuRatio(r)} |`,
    );
  }
  console.log();
}
