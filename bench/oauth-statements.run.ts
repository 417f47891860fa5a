// Issue 36 item 1: where the bearer check, a refresh and a password login go, statement by statement. A real
// `gable serve` on PostgreSQL; each flow runs `--requests` times and pg_stat_statements says what the database
// executed for it (calls, time, buffers, WAL), divided per request, with the CPU of the server and its sessions.
//   DATABASE_URL=postgres://…/postgres node bin/run-ts.js bench/oauth-statements.run.ts [--requests 2000]
//     [--passwords 200] [--flows self,refresh,password]
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
import { createFoundationFixture, refreshTokens, type FoundationFixture } from './foundation.bench.js';
import { cpuBetween } from './lib/cpu.js';
import { DEFAULT_SERVER_URL, dropDatabase, recreateDatabase } from './lib/database.js';
import { cannon } from './lib/load.js';
import { meterOf, startProcess } from './lib/processes.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    passwords: { type: 'string', default: '200' },
    flows: { type: 'string', default: 'self,refresh,password' },
  },
});
const requests = Number(args.requests);
const serverUrl = process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
const DATABASE = 'gable_oauth_statements';

interface Flow {
  key: string;
  name: string;
  count: number;
  run(url: string, fixture: FoundationFixture): Promise<unknown>;
}

const flows: Flow[] = [
  {
    key: 'self',
    name: 'GET /users/self (bearer check + user record)',
    count: requests,
    run: (url, fixture) =>
      cannon({
        name: 'self',
        url: `${url}/users/self`,
        amount: requests,
        headers: { authorization: `Bearer ${fixture.accessToken}` },
      }),
  },
  {
    key: 'refresh',
    name: 'POST /oauth2/token grant_type=refresh_token',
    count: requests,
    run: async (url, fixture) => {
      const pool = await refreshTokens(deps, fixture, requests);
      await reset(); // the pool's own inserts are not the flow's
      return cannon({
        name: 'refresh',
        url: `${url}/oauth2/token`,
        amount: requests,
        requests: [
          {
            method: 'POST',
            path: '/oauth2/token',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                grant_type: 'refresh_token',
                refresh_token: pool.pop(),
                client_id: fixture.clientId,
                client_secret: fixture.clientSecret,
              }),
            }),
          },
        ],
      });
    },
  },
  {
    key: 'password',
    name: 'POST /oauth2/token grant_type=password',
    count: Number(args.passwords),
    run: (url, fixture) =>
      cannon({
        name: 'password',
        url: `${url}/oauth2/token`,
        amount: Number(args.passwords),
        connections: 4,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'password',
          username: fixture.email,
          password: fixture.password,
          client_id: fixture.clientId,
          client_secret: fixture.clientSecret,
        }),
      }),
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
  rows: string;
  shared_blks_hit: string;
  shared_blks_read: string;
  shared_blks_dirtied: string;
  wal_records: string;
  wal_bytes: string;
}

async function statements(): Promise<StatementRow[]> {
  const { rows } = await stats.query<StatementRow>(
    `select query, calls, total_exec_time, rows, shared_blks_hit, shared_blks_read, shared_blks_dirtied,
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
  await flows[0]!.run(gable.url, fixture); // warm-up: JIT, prepared statements, connections
  const chosen = new Set(args.flows.split(','));
  for (const flow of flows.filter((f) => chosen.has(f.key))) {
    await reset();
    const meter = meterOf(gable.url)!;
    const before = await meter.read();
    await flow.run(gable.url, fixture);
    const cpu = cpuBetween(before, await meter.read());
    const rows = await statements();
    const total = (key: keyof StatementRow) => rows.reduce((sum, row) => sum + Number(row[key]), 0);
    console.log(`\n### ${flow.name} (${flow.count} requests)\n`);
    console.log(
      `CPU per request: ${(cpu.total / flow.count).toFixed(3)} ms (server ${(cpu.server / flow.count).toFixed(3)}, ` +
        `database ${((cpu.total - cpu.server) / flow.count).toFixed(3)}); statements per request ` +
        `${per(total('calls'), flow.count)}, execution ${per(total('total_exec_time'), flow.count)} ms, ` +
        `WAL ${per(total('wal_records'), flow.count)} records / ${per(total('wal_bytes'), flow.count)} bytes\n`,
    );
    console.log(
      '| calls/req | exec ms/call | rows/call | buffers hit/req | dirtied/req | WAL rec/req | WAL B/req | statement |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const row of rows) {
      const calls = Number(row.calls);
      if (calls === 0) continue;
      console.log(
        `| ${per(calls, flow.count)} | ${(row.total_exec_time / calls).toFixed(3)} | ${per(row.rows, calls)} | ` +
          `${per(row.shared_blks_hit, flow.count)} | ${per(row.shared_blks_dirtied, flow.count)} | ` +
          `${per(row.wal_records, flow.count)} | ${per(row.wal_bytes, flow.count)} | \`${oneLine(row.query)}\` |`,
      );
    }
  }
} finally {
  await gable.stop();
  await stats.end();
  await closeDeps(deps);
  await dropDatabase(serverUrl, DATABASE);
}
