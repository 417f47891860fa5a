// Several processes on one PostgreSQL, proved (issue 31 item 5): two `gable serve` processes (WORKERS_IN_PROCESS=
// false) behind a loopback round-robin proxy (bench/lib/proxy.ts) and two `gable worker` processes, all the real
// compiled `gable`, under a mixed load (bench/scale-out.load.ts: token refreshes, contact writes whose events go to
// a loopback webhook receiver, listing ingest matched by an Instant saved search whose alerts go to an SMTP sink,
// bearer reads, an email campaign every 10 s to the sink).
//   1. One serve behind the proxy for half of --duration (after 3 s of warm-up): req/s with 1 serve.
//   2. Two serves for half of --duration: req/s with 2 serves.
//   3. A worker is caught holding webhook jobs: 32 deliveries go to a receiver path that holds every request, and
//      the worker holding most of them (≥ 16) is the one killed. Then at once: SIGTERM to one serve (graceful: it
//      stops accepting, finishes what is in flight, exits) and SIGKILL to that worker; replacements start (the
//      serve on the same port, so the proxy needs no change) while the load runs on for another half of --duration.
//   4. After the load: the public rate limit through the proxy (one client address, consecutive requests on
//      different serves: the window in PostgreSQL must hold across them), refresh-token races between the two serves
//      (the row lock), cron ticks once a minute whatever the number of workers; then the drain: until every event,
//      delivery, match, campaign and email the load caused is done (bounded by --scale-out-wait). The killed worker's
//      jobs run again when they expire (webhooks.deliver 30 s; mail.send 5 min; the match, delivery and campaign
//      jobs 15 min) and pg-boss's maintenance (every 30 s) looks: what is still held 75 s after the kill has its
//      expiry (and its messages' send lease) moved into the past, as the crash tests do, and the count says how long
//      it would have waited.
// Counted: HTTP errors (non-2xx or unanswered, at the client; refusals at the stopped serve are retried by the
// proxy and counted apart), work lost (0: every webhook delivery at the receiver, every ledger email at the sink),
// repeats (only with the same webhook-id / Message-ID), the killed worker's held deliveries (each delivered once
// afterwards by another worker).
//
// How to run it (PostgreSQL on this machine; not part of `npm test`; runs only when named, since it kills processes
// and waits for job expiry). 5–7 minutes at --duration 60: the run's baseline takes --duration too, the load
// 1.5 × --duration, the drain up to 2 minutes:
//   node scripts/build.js && npm run bench -- --only scale-out --duration 60
// --duration 15 while developing. --scale-out-wait: the longest wait for the drain in seconds (default 240).
import { randomBytes } from 'node:crypto';
import type { Deps } from '../src/platform/deps.js';
import { recordEvents } from '../src/events/outbox.js';
import { EMPTY_CONTACT } from '../src/modules/contacts/contacts.input.js';
import { importContacts } from '../src/modules/contacts/contacts.service.js';
import { benchBaseline, refreshTokens, type FoundationFixture } from './foundation.bench.js';
import type { LoadResult } from './lib/load.js';
import { startProcess, startWorkerProcess, type ServerProcess, type WorkerProcess } from './lib/processes.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './lib/proxy.js';
import { startSmtpSink } from './lib/smtp-sink.js';
import { startWebhookReceiver } from './lib/webhook-receiver.js';
import {
  checkRateLimit,
  checkRefreshRace,
  cronTicks,
  deadWorkerJobs,
  deliveryCounts,
  expireDeadWorkerJobs,
  unfinishedWork,
  type Scope,
} from './scale-out.checks.js';
import { byKind, REFRESH_CHAINS, startMixedLoad, summarize } from './scale-out.load.js';

export interface ScaleOutOptions {
  /** Seconds of load with two serves (half before the kills, half after); the one-serve phase is half as long. */
  duration: number;
  /** The longest wait for the drain after the load, in seconds. */
  waitSeconds: number;
  /** The run's environment (DATABASE_URL of the fresh bench database, SECRET_KEY). */
  env: Record<string, string>;
  /** The serve processes listen on this port and the next. */
  port: number;
  feedToken: string;
  baselineUrl: string;
  campaignRecipients?: number;
}

const WARM_UP_MS = 3000;
const HELD_DELIVERIES = 32;
const RATE_LIMIT = 40;
const RACE_TRIALS = 20;
const SPARE_TOKENS = 8;
/**
 * This long after the kill, jobs the killed worker still holds wait for an expiry the bench does not wait for:
 * the webhook jobs' 30 s, pg-boss's maintenance every 30 s, and a margin.
 */
const NATURAL_WAIT_SECONDS = 75;
/** All of the continental United States: every synthetic listing matches. */
const EVERYWHERE = [
  { longitude: -125, latitude: 24 },
  { longitude: -66, latitude: 24 },
  { longitude: -66, latitude: 50 },
  { longitude: -125, latitude: 50 },
  { longitude: -125, latitude: 24 },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, seconds: number, ready: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`scale-out: ${what} did not happen within ${seconds} s`);
    await sleep(100);
  }
}

async function webhook(deps: Deps, brand: string, topic: string, url: string): Promise<void> {
  await deps.db
    .insertInto('brand_webhooks')
    .values({ brand, topic, url, key_sealed: deps.secrets.encrypt(randomBytes(32).toString('hex')) })
    .execute();
}

/** The saved search every ingested listing matches, with two Instant contacts (their alerts go to the sink). */
async function everywhereSearch(deps: Deps, serveUrl: string, fixture: FoundationFixture, brand: string) {
  await importContacts(
    deps,
    brand,
    [0, 1].map((i) => ({ ...EMPTY_CONTACT, first_name: `Alert${i}`, emails: [`alert-${i}@mail.example`] })),
  );
  const contacts = (
    await deps.db.selectFrom('contacts').select('id').where('first_name', 'like', 'Alert_').execute()
  ).map((c) => c.id);
  const res = await fetch(`${serveUrl}/brands/${brand}/saved-searches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fixture.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ points: EVERYWHERE, title: 'Everywhere', contacts, frequency: 'Instant' }),
  });
  if (!res.ok) throw new Error(`saved search answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

export async function benchScaleOut(
  deps: Deps,
  fixture: FoundationFixture,
  options: ScaleOutOptions,
): Promise<{ results: LoadResult[]; notes: string[]; counts: [string, string][] }> {
  // The proxy's own cost: the run's baseline server measured through it, as the baseline is measured directly.
  const baselineProxy = await startRoundRobinProxy([options.baselineUrl]);
  const results: LoadResult[] = [
    {
      ...(await benchBaseline(baselineProxy.url, fixture.userId, Math.min(5, options.duration))),
      name: 'baseline through the bench proxy (a fresh connection per request)',
    },
  ];
  await baselineProxy.close();
  const since = new Date();
  const sink = await startSmtpSink({ recordIds: true });
  const receiver = await startWebhookReceiver();
  const brand = (
    await deps.db.selectFrom('memberships').select('brand').where('user', '=', fixture.userId).executeTakeFirstOrThrow()
  ).brand;
  const holdBrand = (
    await deps.db.insertInto('brands').values({ name: 'Scale-out hold' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  await webhook(deps, brand, 'Contacts', receiver.url('/contacts'));
  await webhook(deps, holdBrand, 'Deals', receiver.url('/hold'));
  const campaignTag = 'scale-out';
  await importContacts(
    deps,
    brand,
    Array.from({ length: options.campaignRecipients ?? 300 }, (_, i) => ({
      ...EMPTY_CONTACT,
      first_name: `Reader${i}`,
      emails: [`reader-${i}@mail.example`],
      tags: [campaignTag],
    })),
  );
  const tokens = await refreshTokens(deps, fixture, REFRESH_CHAINS + SPARE_TOKENS + RACE_TRIALS);
  const raceTokens = tokens.splice(0, RACE_TRIALS);

  const env = {
    ...options.env,
    WORKERS_IN_PROCESS: 'false',
    TRUST_PROXY: 'true',
    PUBLIC_RATE_LIMIT: String(RATE_LIMIT),
    PUBLIC_RATE_WINDOW_SECONDS: '600',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    SMTP_URL: sink.url,
  };
  const workers: WorkerProcess[] = await Promise.all([
    startWorkerProcess(env, 'worker-1'),
    startWorkerProcess(env, 'worker-2'),
  ]);
  const serves: ServerProcess[] = [];
  serves.push(await startProcess(['bin/gable.js', 'serve'], env, options.port));
  serves.push(await startProcess(['bin/gable.js', 'serve'], env, options.port + 1));
  const proxy: RoundRobinProxy = await startRoundRobinProxy([serves[0]!.url]);
  const notes: string[] = [];
  const counts: [string, string][] = [];
  try {
    const search = await everywhereSearch(deps, serves[0]!.url, fixture, brand);
    const scope: Scope = { brands: [brand, holdBrand], search, since };
    const half = (options.duration * 1000) / 2;

    const load = startMixedLoad(proxy.url, {
      ...fixture,
      refreshTokens: tokens,
      feedToken: options.feedToken,
      brand,
      campaignTag,
    });
    const oneFrom = performance.now() + WARM_UP_MS;
    await sleep(WARM_UP_MS + half);
    const oneTo = performance.now();
    proxy.setBackends(serves.map((s) => s.url));
    await sleep(half);
    const twoTo = performance.now();

    // A worker caught holding webhook jobs, then the kills.
    await deps.db.transaction().execute((trx) =>
      recordEvents(
        trx,
        Array.from({ length: HELD_DELIVERIES }, (_, seq) => ({
          brand: holdBrand,
          topic: 'Deals' as const,
          event: 'Created' as const,
          subject: holdBrand,
          payload: { seq },
        })),
      ),
    );
    await waitFor(`${HELD_DELIVERIES} held deliveries`, 10, () => receiver.held().length >= HELD_DELIVERIES);
    const heldBy = await receiver.heldBy(workers.map((w) => w.pid));
    const victim = workers.reduce((a, b) => (heldBy.get(a.pid)!.length >= heldBy.get(b.pid)!.length ? a : b));
    const victimHeld = heldBy.get(victim.pid)!;
    const killedAt = new Date();
    const killFrom = performance.now();
    const stopped = serves[1]!.stop().then(() => performance.now() - killFrom);
    await victim.signal('SIGKILL');
    receiver.release(); // the surviving worker's held attempts are answered; the victim's connections are gone
    workers.splice(workers.indexOf(victim), 1);
    const [serveExitMs, replacement] = await Promise.all([stopped, startWorkerProcess(env, 'worker-3')]);
    workers.push(replacement);
    const serveRestartFrom = performance.now();
    serves[1] = await startProcess(['bin/gable.js', 'serve'], env, options.port + 1);
    const serveRestartMs = performance.now() - serveRestartFrom;
    const killTo = killFrom + half;
    await sleep(Math.max(0, killTo - performance.now()));
    await load.stop();
    const loadEnd = performance.now();

    results.push(
      summarize('scale-out: mixed load, 1 serve, 2 workers', load.samples, oneFrom, oneTo),
      summarize('scale-out: mixed load, 2 serves, 2 workers', load.samples, oneTo, twoTo),
      summarize(
        'scale-out: 2 serves, one SIGTERMed and one worker SIGKILLed, both replaced',
        load.samples,
        killFrom,
        killTo,
      ),
    );
    notes.push(
      `scale-out, by kind (1 serve): ${byKind(load.samples, oneFrom, oneTo)}`,
      `scale-out, by kind (2 serves): ${byKind(load.samples, oneTo, twoTo)}`,
      `scale-out, by kind (kills and replacements): ${byKind(load.samples, killFrom, killTo)}`,
      `scale-out: the SIGTERMed serve exited ${(serveExitMs / 1000).toFixed(1)} s after the signal; its replacement answered /health ${(serveRestartMs / 1000).toFixed(1)} s after that`,
      `scale-out proxy: ${proxy.counts.requests} requests, ${proxy.counts.refused} refused connections retried, ${proxy.counts.resetsRetried} resets and ${proxy.counts.unavailableRetried} 503s retried (idempotent), ${proxy.counts.resetsNotRetried} resets not retried (502), ${proxy.counts.failed} failed; answered by ${[...proxy.counts.perBackend].map(([origin, n]) => `${new URL(origin).port}: ${n}`).join(', ')}`,
    );

    // Across processes: the rate-limit window and the refresh-token row lock.
    const limited = await checkRateLimit(proxy.url, brand, RATE_LIMIT);
    const race = await checkRefreshRace([serves[0]!.url, serves[1]!.url], fixture, raceTokens);

    // The drain.
    let expired: string | null = null;
    let remaining: Record<string, number> = {};
    let delivered = await deliveryCounts(deps, scope, receiver, sink);
    const heldDone = async () =>
      Number(
        (
          await deps.db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('id', 'in', victimHeld)
            .where('status', '=', 'delivered')
            .executeTakeFirstOrThrow()
        ).n,
      ) === victimHeld.length;
    let heldRecoveredMs: number | null = null;
    const deadline = loadEnd + options.waitSeconds * 1000;
    for (;;) {
      if (heldRecoveredMs === null && (await heldDone())) heldRecoveredMs = performance.now() - killFrom;
      remaining = await unfinishedWork(deps, scope);
      delivered = await deliveryCounts(deps, scope, receiver, sink);
      const open =
        Object.values(remaining).reduce((a, b) => a + b, 0) +
        delivered.webhooksLost +
        delivered.contactEventsLost +
        delivered.emailsLost;
      if (open === 0 || performance.now() > deadline) break;
      if (expired === null && performance.now() > killFrom + NATURAL_WAIT_SECONDS * 1000) {
        const held = await deadWorkerJobs(deps, killedAt);
        expired = held.length
          ? held.map((h) => `${h.n} ${h.name} (expiring in ${h.expiresInSeconds.toFixed(0)} s)`).join(', ')
          : 'none';
        if (held.length) await expireDeadWorkerJobs(deps, killedAt);
      }
      await sleep(2000);
    }
    const drainMs = performance.now() - loadEnd;
    const ticks = await cronTicks(deps, ['webhooks.fan-out', 'saved-searches.digests'], since);
    const { rows: heldAttempts } = await deps.db
      .selectFrom('webhook_attempts')
      .select((eb) => ['delivery', eb.fn.countAll<string>().as('n')])
      .where('delivery', 'in', victimHeld)
      .groupBy('delivery')
      .execute()
      .then((rows) => ({ rows }));
    const unfinished = Object.entries(remaining).filter(([, n]) => n > 0);

    const errors = load.samples.filter((s) => s.status < 200 || s.status >= 300).length;
    counts.push(
      ['requests (all phases)', String(load.samples.length)],
      ['HTTP errors at the client (non-2xx or unanswered)', String(errors)],
      ['connections refused by the stopped serve (retried by the proxy)', String(proxy.counts.refused)],
      [
        'idempotent requests retried after a reset / a 503; POST resets answered 502',
        `${proxy.counts.resetsRetried} / ${proxy.counts.unavailableRetried}; ${proxy.counts.resetsNotRetried}`,
      ],
      [
        'webhook deliveries: written / lost; Contacts events not announced',
        `${delivered.webhookDeliveries} / ${delivered.webhooksLost}; ${delivered.contactEventsLost}`,
      ],
      [
        'webhook repeats, same webhook-id / another id / unknown id',
        `${delivered.webhookRepeats} / ${delivered.webhookDifferentIdRepeats} / ${delivered.webhookUnknownIds}`,
      ],
      ['emails (campaigns and alerts): in the ledger / lost', `${delivered.emails} / ${delivered.emailsLost}`],
      [
        'email repeats, same Message-ID / another id / unknown id',
        `${delivered.emailRepeats} / ${delivered.emailDifferentIdRepeats} / ${delivered.emailUnknownIds}`,
      ],
      [
        `deliveries held by the SIGKILLed worker: delivered afterwards / with one recorded attempt`,
        `${victimHeld.length}: ${heldAttempts.length} / ${heldAttempts.filter((a) => Number(a.n) === 1).length}`,
      ],
      [
        'recovery of the held deliveries (from the kill)',
        heldRecoveredMs === null ? 'not within the wait' : `${(heldRecoveredMs / 1000).toFixed(0)} s`,
      ],
      [
        'drain after the load (everything done)',
        unfinished.length
          ? `not done in ${(drainMs / 1000).toFixed(0)} s: ${unfinished.map(([k, n]) => `${n} ${k}`).join(', ')}`
          : `${(drainMs / 1000).toFixed(0)} s`,
      ],
      [
        `killed worker's jobs still held ${NATURAL_WAIT_SECONDS} s after the kill, expired early`,
        expired ?? 'none (drained before)',
      ],
      [
        `public rate limit ${RATE_LIMIT}: passed / 429 / other, of ${limited.sent} through both serves`,
        `${limited.passed} / ${limited.limited} / ${limited.other}`,
      ],
      [
        `refresh races between the serves: one live pair after, of ${race.trials}`,
        `${race.oneLivePair} (answers ${[...race.answers].map(([k, n]) => `${n}×${k}`).join(', ')})`,
      ],
      ['cron minutes with a tick sent twice (of minutes seen)', `${ticks.repeated} (of ${ticks.minutes})`],
    );
    return { results, notes, counts };
  } finally {
    await proxy.close();
    await Promise.all([...serves.map((s) => s.stop()), ...workers.map((w) => w.signal('SIGTERM'))]);
    await receiver.close();
    await sink.close();
  }
}

export function printScaleOutCounts(counts: [string, string][]): void {
  console.log('\n| scale-out count | value |');
  console.log('|---|---:|');
  for (const [name, value] of counts) console.log(`| ${name} | ${value} |`);
  console.log();
}
