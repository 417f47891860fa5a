// Issue 36 item 3: what an idle server costs. A real `gable serve` (workers in-process) on the demo world, nothing
// happening: its CPU and, on PostgreSQL, the CPU of its database sessions, the transactions its database commits and
// the sessions it opens (each a server process forked and, with a password, a SCRAM exchange on both sides),
// per minute, after a settling time in which the start-up jobs finish and V8 shrinks the heap start-up left.
//   node bin/run-ts.js bench/idle.run.ts [--seconds 60] [--settle 90] [--databases embedded,postgres]
// DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres); the bench creates
// and drops its own database there. The baseline in the same run is `node -e` idling for the same time (setInterval
// of 1 s), so a figure reads as "this much more than a Node process doing nothing". Memory: the resident size at
// the end, and V8's heap and external memory from the server's /metrics (the rest is code, the runtime and, on
// the embedded database, PGlite's WebAssembly memory).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { processCpuMs } from '../test/helpers/process-cpu.js';
import { freePort } from '../test/helpers/ports.js';
import { DEFAULT_SERVER_URL, dropDatabase, recreateDatabase } from './lib/database.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    settle: { type: 'string', default: '90' },
    databases: { type: 'string', default: 'embedded,postgres' },
  },
});
const seconds = Number(args.seconds);
const settleSeconds = Number(args.settle);
const serverUrl = process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
const APPLICATION = 'bench-idle-server';

interface Row {
  process: string;
  'CPU s / min': number;
  'database CPU s / min': number | null;
  'commits / min': number | null;
  'sessions opened / min': number | null;
  /** Resident memory at the end of the measurement, and what of it V8's heap and its external buffers hold. */
  'RSS MiB': number;
  'V8 heap MiB': number | null;
  'external MiB': number | null;
}

const MIB = 1024 * 1024;

/** Resident memory of a process (VmRSS), in MiB. */
function residentMiB(pid: number): number {
  const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kib) / 1024);
}

/** V8's heap and external memory as the server's own /metrics reports them (prom-client's default metrics). */
async function heapMiB(port: number): Promise<{ heap: number; external: number }> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    heap: Math.round(metric('nodejs_heap_size_total_bytes') / MIB),
    external: Math.round(metric('nodejs_external_memory_bytes') / MIB),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
}

/** Cumulative CPU of the database sessions the server opened (named by PGAPPNAME), by their backends' pids. */
async function sessionsCpuMs(admin: pg.Client): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [
    APPLICATION,
  ]);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) cpu.set(pid, await processCpuMs(pid));
  return cpu;
}

/** The database's transactions and sessions so far (PostgreSQL 14 and later count sessions). */
async function counters(admin: pg.Client, database: string): Promise<{ commits: number; sessions: number }> {
  // Statistics reach the shared counters within a second of a transaction; clear the snapshot to read them anew.
  await admin.query('select pg_stat_clear_snapshot()');
  const { rows } = await admin.query<{ commits: string; sessions: string }>(
    'select xact_commit + xact_rollback as commits, sessions from pg_stat_database where datname = $1',
    [database],
  );
  return { commits: Number(rows[0]?.commits ?? 0), sessions: Number(rows[0]?.sessions ?? 0) };
}

async function measureBaseline(): Promise<Row> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await sleep(1000);
  const before = await processCpuMs(child.pid!);
  await sleep(seconds * 1000);
  const used = (await processCpuMs(child.pid!)) - before;
  const rss = residentMiB(child.pid!);
  await stop(child);
  return {
    process: 'baseline: node idling',
    'CPU s / min': perMinute(used / 1000),
    'database CPU s / min': null,
    'commits / min': null,
    'sessions opened / min': null,
    'RSS MiB': rss,
    'V8 heap MiB': null,
    'external MiB': null,
  };
}

function perMinute(value: number): number {
  return Number(((value * 60) / seconds).toFixed(3));
}

async function measureServer(kind: string): Promise<Row> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gable-bench-idle-'));
  const name = 'gable_bench_idle';
  const databaseUrl = kind === 'postgres' ? await recreateDatabase(serverUrl, name) : null;
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    PGAPPNAME: APPLICATION,
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, SECRET_KEY: randomBytes(32).toString('hex') } : {}),
  };
  let server: ChildProcess | null = null;
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    if (databaseUrl) {
      // The demo world on PostgreSQL (the embedded first start makes its own). Commands other than `migrate`
      // refuse a database behind the code's migrations, so the new database is migrated first.
      for (const command of [['migrate'], ['seed', 'demo']]) {
        const ran = spawnSync(process.execPath, ['bin/gable.js', ...command], { env, stdio: 'ignore' });
        if (ran.status !== 0) throw new Error(`gable ${command.join(' ')} exited with ${ran.status}`);
      }
    }
    server = spawn(process.execPath, ['bin/gable.js', 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`gable serve exited with ${server.exitCode}`);
      if (i === 1800) throw new Error('the server did not answer /health within 3 minutes');
      const up = await fetch(`http://127.0.0.1:${port}/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (up) break;
      await sleep(100);
    }
    console.error(`${kind}: serving; settling ${settleSeconds} s, then measuring ${seconds} s`);
    await sleep(settleSeconds * 1000);
    if (databaseUrl) await admin.connect();
    const cpuBefore = await processCpuMs(server.pid!);
    const sessionsBefore = databaseUrl ? await sessionsCpuMs(admin) : null;
    const countersBefore = databaseUrl ? await counters(admin, name) : null;
    await sleep(seconds * 1000);
    const cpu = ((await processCpuMs(server.pid!)) - cpuBefore) / 1000;
    let databaseCpu: number | null = null;
    if (sessionsBefore) {
      databaseCpu = 0;
      for (const [pid, now] of await sessionsCpuMs(admin)) databaseCpu += (now - (sessionsBefore.get(pid) ?? 0)) / 1000;
    }
    const countersAfter = countersBefore ? await counters(admin, name) : null;
    const memory = await heapMiB(port);
    return {
      process: `gable serve, ${kind}`,
      'CPU s / min': perMinute(cpu),
      'database CPU s / min': databaseCpu === null ? null : perMinute(databaseCpu),
      // The admin session's own two statements are not the server's.
      'commits / min':
        countersBefore && countersAfter
          ? Math.round(((countersAfter.commits - countersBefore.commits - 2) * 60) / seconds)
          : null,
      'sessions opened / min':
        countersBefore && countersAfter
          ? Math.round(((countersAfter.sessions - countersBefore.sessions) * 60) / seconds)
          : null,
      'RSS MiB': residentMiB(server.pid!),
      'V8 heap MiB': memory.heap,
      'external MiB': memory.external,
    };
  } finally {
    if (server) await stop(server);
    await admin.end().catch(() => undefined);
    if (databaseUrl) await dropDatabase(serverUrl, name);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Each figure is printed as soon as it is measured, so a later failure does not lose the earlier ones.
const rows: Row[] = [await measureBaseline()];
console.log(JSON.stringify(rows[0]));
for (const kind of args.databases.split(',')) {
  rows.push(await measureServer(kind));
  console.log(JSON.stringify(rows.at(-1)));
}
console.table(rows);
