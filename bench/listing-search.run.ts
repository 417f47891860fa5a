// Runs bench/listing-search.bench.ts against an already seeded PostgreSQL database:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/gable_bench_search node bin/run-ts.js bench/listing-search.run.ts \
//     [--requests 200] [--concurrency 4] [--strategies] [--around -96.797,32.7767,30] [--port 3903] [--scenarios deep,text] [--baseline 5]
// --port: the server's port (several benches on one machine); --scenarios: only scenarios whose name contains one
// of these words (A/B of one change without re-running the other eight); --baseline: seconds of the bare
// Fastify + pg baseline server (on port + 1) after the scenarios, the reference of `npm run bench`.
// (seed first: DATABASE_URL=… npx gable migrate && DATABASE_URL=… npx gable seed listings --count 1000000)
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { closeDeps, createDeps } from '../src/deps.js';
import { benchListingSearch, compareTotalStrategies, createListingSearchFixture } from './listing-search.bench.js';
import { startProcess } from './lib/processes.js';
import { benchBaseline } from './foundation.bench.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '4' },
    strategies: { type: 'boolean', default: false },
    around: { type: 'string' },
    port: { type: 'string', default: '3903' },
    scenarios: { type: 'string' },
    baseline: { type: 'string' },
  },
});
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL must name the seeded database');
const env = {
  DATABASE_URL: databaseUrl,
  SECRET_KEY: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'warn',
  WORKERS_IN_PROCESS: 'false',
};
const deps = await createDeps(loadConfig(env));
const server = await startProcess(['bin/gable.js', 'serve'], env, Number(args.port));
try {
  // --around lon,lat,km: centre the map scenarios on one metro (seeded data clusters in metros).
  const [longitude, latitude, km] = (args.around ?? '').split(',').map(Number);
  const fixture = await createListingSearchFixture(
    deps,
    args.around ? { around: { longitude: longitude!, latitude: latitude!, km: km! } } : {},
  );
  const results = await benchListingSearch(server.url, fixture, {
    requests: Number(args.requests),
    concurrency: Number(args.concurrency),
    ...(args.scenarios ? { only: args.scenarios.split(',') } : {}),
  });
  console.log(`\n${fixture.listings} listings, concurrency ${args.concurrency}\n`);
  // CPU ms/req: the server process and its database sessions (bench/lib/cpu.ts), the figure a loaded machine moves least.
  console.log('| scenario | requests | non-2xx | req/s | p50 ms | p95 ms | p99 ms | CPU ms/req |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results)
    console.log(
      `| ${r.name} | ${r.requests} | ${r.errors} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95?.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.cpuMs?.toFixed(1) ?? '–'} |`,
    );
  if (args.baseline) {
    const baselineServer = await startProcess(
      ['bin/run-ts.js', 'bench/servers/baseline.ts'],
      env,
      Number(args.port) + 1,
    );
    try {
      await benchBaseline(baselineServer.url, fixture.userId, 2);
      const baseline = await benchBaseline(baselineServer.url, fixture.userId, Number(args.baseline));
      console.log(
        `\nbaseline (bare Fastify + pg, one SELECT by id): ${baseline.rps.toFixed(0)} req/s, p50 ${baseline.p50} ms`,
      );
    } finally {
      await baselineServer.stop();
    }
  }
  if (args.strategies) {
    console.log(
      '\nExact total, SQL only, one query at a time:\n\n| scenario [strategy] | runs | q/s | p50 ms | p95 ms |\n|---|---:|---:|---:|---:|',
    );
    for (const r of await compareTotalStrategies(deps, fixture))
      console.log(`| ${r.name} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95?.toFixed(1)} |`);
  }
} finally {
  await server.stop();
  await closeDeps(deps);
}
