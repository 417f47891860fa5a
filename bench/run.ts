// `npm run bench`: starts the servers on PostgreSQL and measures, in one run, the baseline and Gable's
// endpoints, printing req/s, latencies and the ratio of each to the baseline measured in the same run.
//   npm run bench -- [--duration 10] [--only foundation,...]
// DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres); the bench
// creates and drops its own database there.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { closeDeps, createDeps } from '../src/deps.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { DEFAULT_SERVER_URL, dropDatabase, recreateDatabase } from './lib/database.js';
import type { LoadResult } from './lib/load.js';
import { startProcess } from './lib/processes.js';
import { argon2MillisecondsPerHash, benchBaseline, benchPasswordGrant, benchRefreshGrant, benchUsersSelf, createFoundationFixture, refreshTokens } from './foundation.bench.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const duration = Number(args.duration);
const only = args.only ? new Set(args.only.split(',')) : null;
const wants = (suite: string) => !only || only.has(suite);

const serverUrl = process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
const databaseName = 'gable_bench';
const databaseUrl = await recreateDatabase(serverUrl, databaseName);
const secretKey = randomBytes(32).toString('hex');
const env = { DATABASE_URL: databaseUrl, SECRET_KEY: secretKey, LOG_LEVEL: 'warn', WORKERS_IN_PROCESS: 'false' };

const config = loadConfig(env);
const deps = await createDeps(config);
await migrateToLatest(deps.db);

const results: LoadResult[] = [];
const notes: string[] = [];
const baselineServer = await startProcess(['bin/run-ts.js', 'bench/servers/baseline.ts'], env, 3901);
const gable = await startProcess(['bin/gable.js', 'serve'], env, 3902);

try {
  const fixture = await createFoundationFixture(deps);
  const baseline = await benchBaseline(baselineServer.url, fixture.userId, duration);
  results.push(baseline);
  if (wants('foundation')) {
    results.push(await benchUsersSelf(gable.url, fixture, duration));
    results.push(await benchRefreshGrant(gable.url, fixture, await refreshTokens(deps, fixture, Math.max(2000, duration * 600))));
    results.push(await benchPasswordGrant(gable.url, fixture, Math.min(duration, 5)));
    notes.push(`argon2id hash (m=19 MiB, t=2, p=1): ${(await argon2MillisecondsPerHash()).toFixed(1)} ms per hash`);
  }
  printTable(results, baseline);
  for (const note of notes) console.log(note);
} finally {
  await gable.stop();
  await baselineServer.stop();
  await closeDeps(deps);
  if (!args.keep) await dropDatabase(serverUrl, databaseName);
}

function printTable(rows: LoadResult[], baseline: LoadResult): void {
  const fmt = (n: number | undefined, digits = 1) => (n === undefined ? '–' : n.toFixed(digits));
  console.log('\n| scenario | requests | non-2xx | req/s | p50 ms | p95 ms | p99 ms | × baseline req/s |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.requests} | ${r.errors} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${(r.rps / baseline.rps).toFixed(2)} |`);
  }
  console.log();
}
