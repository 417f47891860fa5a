// Issue 36 item 1: where the bearer check, a refresh and a password login go, statement by statement. A real
// `gable serve` on PostgreSQL; each flow runs for `--seconds` (a refresh `--refreshes` times) and pg_stat_statements says what the database
// executed for it (calls, time, buffers, WAL), divided per request, with the CPU of the server and its sessions.
//   DATABASE_URL=postgres://…/postgres node bin/run-ts.js bench/oauth-statements.run.ts [--seconds 10]
//     [--refreshes 4000] [--flows self,refresh,password]
// BENCH_SERVER_NODE_ARGS: Node flags of the server alone (e.g. `--cpu-prof --cpu-prof-dir=DIR` for a profile).
// The server must load pg_stat_statements (shared_preload_libraries); docs/oauth.md shows how to start one that does
// beside the usual server without touching it.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrateToLatest } from '../src/db/migrator.js';
import { loadConfig } from '../src/config.js';
import { closeDeps, createDeps } from '../src/deps.js';
import { freePort } from '../test/helpers/ports.js';
import {
  benchPasswordGrant,
  benchRefreshGrant,
  benchUsersSelf,
  createFoundationFixture,
  refreshTokens,
  type FoundationFixture,
} from './foundation.bench.js';
import { DEFAULT_SERVER_URL, dropDatabase, recreateDatabase } from './lib/database.js';
import type { LoadResult } from './lib/load.js';
import { startProcess } from './lib/processes.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    refreshes: { type: 'string', default: '4000' },
    flows: { type: 'string', default: 'self,refresh,password' },
  },
});
const seconds = Number(args.seconds);
const refreshes = Number(args.refreshes);
const serverUrl = process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
const DATABASE = 'gable_oauth_statements';

interface Flow {
  key: string;
  name: string;
  run(url: string, fixture: FoundationFixture): Promise<LoadResult>;
}

// The same loads as the foundation suite (bench/foundation.bench.ts), so the figures read side by side.
const flows: Flow[] = [
  {
    key: 'self',
    name: 'GET /users/self (bearer check + user record)',
    run: (url, fixture) => benchUsersSelf(url, fixture, seconds),
  },
  {
    key: 'refresh',
    name: 'POST /oauth2/token grant_type=refresh_token',
    run: async (url, fixture) => {
      const pool = await refreshTokens(deps, fixture, refreshes);
      await reset(); // the pool's own inserts are not the flow's
      return benchRefreshGrant(url, fixture, pool);
    },
  },
  {
    key: 'password',
    name: 'POST /oauth2/token grant_type=password',
    run: (url, fixture) => benchPasswordGrant(url, fixture, Math.min(seconds, 5)),
  },
];

const databaseUrl = await recreateDatabase(serverUrl, DATABASE);
const env = {
  DATABASE_URL: databaseUrl,
  SECRET_KEY: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'warn',
  WORKERS_IN_PROCESS: 'false',
};
const deps = await createDeps(loadConfig(env));
await migrateToLatest(deps.db);
const stats = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-statements' });
await stats.connect();
await stats.query('create extension if not exists pg_stat_statements');
const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const gable = await startProcess(
  [...nodeArgs, 'bin/gable.js', 'serve'],
  env,
  Number(process.env.BENCH_PORT ?? (await freePort())),
);

async function reset(): Promise<void> {
  await stats.query('select pg_stat_statements_reset()');
}

interface StatementRow {
  query: string;
  calls: string;
  total_exec_time: number;
  plans: string;
  total_plan_time: number;
  rows: string;
  shared_blks_hit: string;
  shared_blks_read: string;
  shared_blks_dirtied: string;
  wal_records: string;
  wal_bytes: string;
}

async function statements(): Promise<StatementRow[]> {
  const { rows } = await stats.query<StatementRow>(
    `select query, calls, total_exec_time, plans, total_plan_time, rows, shared_blks_hit, shared_blks_read, shared_blks_dirtied,
            wal_records, wal_bytes
       from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())
        and query not like '%pg_stat_statements%' and query not like '%pg_stat_activity%'
      order by total_exec_time desc`,
  );
  return rows;
}

const per = (value: string | number, count: number) => (Number(value) / count).toFixed(2);
const oneLine = (query: string) => query.replace(/\s+/g, ' ').slice(0, 160);

try {
  const fixture = await createFoundationFixture(deps);
  await benchUsersSelf(gable.url, fixture, 2); // warm-up: JIT, prepared statements, connections
  const chosen = new Set(args.flows.split(','));
  for (const flow of flows.filter((f) => chosen.has(f.key))) {
    await reset();
    const result = await flow.run(gable.url, fixture); // the load meters the server's CPU (bench/lib/load.ts)
    const count = result.requests;
    const rows = await statements();
    const total = (key: keyof StatementRow) => rows.reduce((sum, row) => sum + Number(row[key]), 0);
    const cpu = result.cpuMs ?? NaN;
    const server = result.serverCpuMs ?? NaN;
    console.log(`\n### ${flow.name}: ${count} requests, ${result.rps.toFixed(0)}/s, ${result.errors} not 2xx\n`);
    console.log(
      `CPU per request: ${cpu.toFixed(3)} ms (server ${server.toFixed(3)}, database ${(cpu - server).toFixed(3)}); ` +
        `statements per request ${per(total('calls'), count)}, execution ${per(total('total_exec_time'), count)} ms, ` +
        `WAL ${per(total('wal_records'), count)} records / ${per(total('wal_bytes'), count)} bytes\n`,
    );
    console.log(
      '| calls/req | exec ms/call | plans/call | plan ms/plan | rows/call | buffers hit/req | dirtied/req | WAL rec/req | WAL B/req | statement |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const row of rows) {
      const calls = Number(row.calls);
      if (calls === 0) continue;
      console.log(
        `| ${per(calls, count)} | ${(row.total_exec_time / calls).toFixed(3)} | ${per(row.plans, calls)} | ` +
          `${Number(row.plans) > 0 ? (row.total_plan_time / Number(row.plans)).toFixed(3) : '–'} | ${per(row.rows, calls)} | ` +
          `${per(row.shared_blks_hit, count)} | ${per(row.shared_blks_dirtied, count)} | ` +
          `${per(row.wal_records, count)} | ${per(row.wal_bytes, count)} | \`${oneLine(row.query)}\` |`,
      );
    }
  }
} finally {
  await gable.stop();
  await stats.end();
  await closeDeps(deps);
  await dropDatabase(serverUrl, DATABASE);
}
