// Issue 30's start-up figures: how long an operator waits for what they run first, each beside two baselines
// measured in the same run — `node -e 0`, and bare Fastify from `node` to its first /health answer. Medians of
// `runs`. Every gable process runs the compiled dist/, as an operator's does (run.ts builds it first if stale).
//   npm run bench -- --only startup [--startup-runs 5]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from '../test/helpers/process-cpu.js';
import { freePort } from '../test/helpers/ports.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The longest any one start may take before the bench gives up on it. */
const START_LIMIT_MS = 180_000;

/**
 * Loaded into a command's process (`--import`): writes its own CPU (user + system, ms) to BENCH_CPU_OUT as it
 * exits, since a child's CPU cannot be read from /proc once it has gone.
 */
const CPU_HOOK = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs'; process.on('exit', () => { const u = process.cpuUsage(); " +
    'writeFileSync(process.env.BENCH_CPU_OUT, String((u.user + u.system) / 1000)); });',
)}`;

interface Timing {
  wallMs: number;
  cpuMs: number;
}

export interface StartupRow {
  scenario: string;
  runs: number;
  wallS: number;
  cpuS: number;
  /** The issue's limit for the wall time (and the CPU, where it names one); null for a baseline. */
  target: { wallS: number; cpuS?: number } | null;
}

type Env = Record<string, string>;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a command to its end; `okCodes`: the exit statuses that are an answer (doctor exits 1 when a part is broken). */
async function timeCommand(args: string[], env: Env, okCodes = [0]): Promise<Timing> {
  const dir = mkdtempSync(join(tmpdir(), 'gable-bench-cpu-'));
  const cpuFile = join(dir, 'cpu');
  try {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', CPU_HOOK, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, BENCH_CPU_OUT: cpuFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const wallMs = performance.now() - started;
    if (!okCodes.includes(code ?? -1)) throw new Error(`${args.join(' ')} exited with ${code}: ${stderr}`);
    return { wallMs, cpuMs: Number(readFileSync(cpuFile, 'utf8')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts a server and times it from spawn to its first 200 from /health (its CPU by then, from /proc), then stops it. */
async function timeToHealth(args: string[], env: Env): Promise<Timing> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      if (performance.now() - started > START_LIMIT_MS)
        throw new Error(`${args.join(' ')} did not answer /health within ${START_LIMIT_MS / 1000} s`);
      const up = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) }).then(
        (res) => res.ok,
        () => false,
      );
      if (up) return { wallMs: performance.now() - started, cpuMs: await processCpuMs(child.pid!) };
      await sleep(10);
    }
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(20_000).then(() => child.kill('SIGKILL'))]);
    }
  }
}

async function repeat(
  scenario: string,
  runs: number,
  target: StartupRow['target'],
  once: () => Promise<Timing>,
): Promise<StartupRow> {
  const timings: Timing[] = [];
  for (let i = 0; i < runs; i++) timings.push(await once());
  const row = {
    scenario,
    runs,
    wallS: median(timings.map((t) => t.wallMs)) / 1000,
    cpuS: median(timings.map((t) => t.cpuMs)) / 1000,
    target,
  };
  console.error(
    `measured ${scenario}: ${row.wallS.toFixed(2)} s wall, ${row.cpuS.toFixed(2)} s CPU (median of ${runs})`,
  );
  return row;
}

/**
 * `databaseUrl`: an existing, migrated PostgreSQL database (the bench's own); `secretKey` its SECRET_KEY. The
 * embedded scenarios use fresh data directories, removed at the end.
 */
export async function benchStartup(options: {
  runs: number;
  databaseUrl: string;
  secretKey: string;
}): Promise<StartupRow[]> {
  const { runs } = options;
  const dirs: string[] = [];
  const embedded = (dir: string): Env => ({ DATABASE_URL: '', DATA_DIR: dir, LOG_LEVEL: 'warn' });
  const postgres: Env = { DATABASE_URL: options.databaseUrl, SECRET_KEY: options.secretKey, LOG_LEVEL: 'warn' };
  try {
    const rows = [
      await repeat('baseline: node -e 0', runs, null, () => timeCommand(['-e', '0'], {})),
      await repeat('baseline: bare Fastify, node to the first 200 from /health', runs, null, () =>
        timeToHealth(['bench/servers/bare-health.mjs'], {}),
      ),
      await repeat('gable --help', runs, { wallS: 0.3, cpuS: 0.3 }, () => timeCommand(['bin/gable.js', '--help'], {})),
      await repeat('gable serve, embedded: first start on a fresh data directory', runs, { wallS: 12 }, () => {
        const dir = mkdtempSync(join(tmpdir(), 'gable-bench-startup-'));
        dirs.push(dir);
        return timeToHealth(['bin/gable.js', 'serve'], embedded(dir));
      }),
    ];
    // The data directory of the last first start, as an operator's is on every start after it.
    const existing = embedded(dirs.at(-1)!);
    rows.push(
      await repeat('gable serve, embedded: an existing data directory', runs, { wallS: 3 }, () =>
        timeToHealth(['bin/gable.js', 'serve'], existing),
      ),
      await repeat('gable doctor, embedded', runs, { wallS: 3 }, () =>
        timeCommand(['bin/gable.js', 'doctor'], existing, [0, 1]),
      ),
    );
    // The first start on the database loads what a first start loads; the runs measured are the starts after it.
    await timeToHealth(['bin/gable.js', 'serve'], postgres);
    rows.push(
      await repeat('gable serve, PostgreSQL: an existing database', runs, { wallS: 1.5 }, () =>
        timeToHealth(['bin/gable.js', 'serve'], postgres),
      ),
    );
    return rows;
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export function printStartupTable(rows: StartupRow[]): void {
  const baseline = rows[0]!;
  console.log('\n| start-up scenario | runs | wall s (median) | CPU s (median) | × node -e 0 wall | target | met |');
  console.log('|---|---:|---:|---:|---:|---|---|');
  for (const row of rows) {
    const target = row.target
      ? `≤ ${row.target.wallS} s wall${row.target.cpuS !== undefined ? `, ≤ ${row.target.cpuS} s CPU` : ''}`
      : '–';
    const met = row.target
      ? row.wallS <= row.target.wallS && (row.target.cpuS === undefined || row.cpuS <= row.target.cpuS)
        ? 'yes'
        : 'no'
      : '–';
    console.log(
      `| ${row.scenario} | ${row.runs} | ${row.wallS.toFixed(2)} | ${row.cpuS.toFixed(2)} | ${(row.wallS / baseline.wallS).toFixed(1)} | ${target} | ${met} |`,
    );
  }
  console.log();
}
