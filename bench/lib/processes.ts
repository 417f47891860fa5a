// Servers under test run in their own processes so the load generator does not share their event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cpuMeter, type CpuMeter } from './cpu.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** How long a server may take to answer /health (BENCH_START_SECONDS: a slower or busier machine needs more). */
const START_SECONDS = Number(process.env.BENCH_START_SECONDS ?? 60);

export interface ServerProcess {
  url: string;
  /** SIGTERM; answers once the process has exited. */
  stop(): Promise<void>;
}

/** CPU meters of the running servers by origin: the load generators report the CPU per request of the server they load. */
const meters = new Map<string, CpuMeter>();

export function meterOf(url: string): CpuMeter | undefined {
  return meters.get(new URL(url).origin);
}

export async function startProcess(args: string[], env: Record<string, string>, port: number): Promise<ServerProcess> {
  // PGAPPNAME names the server's database sessions (node-postgres reads it), so its meter finds them.
  const applicationName = `bench-server-${port}`;
  const url = `http://127.0.0.1:${port}`;
  // A server already listening there (another bench on the machine) would answer the health check below, and the
  // figures would be that server's: refuse instead (BENCH_PORT / --port pick another).
  if (
    await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${port} is already in use: choose another`);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), PGAPPNAME: applicationName },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + START_SECONDS * 1000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`${args.join(' ')} did not answer /health within ${START_SECONDS} s (BENCH_START_SECONDS)`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const meter =
    env.DATABASE_URL && child.pid !== undefined ? cpuMeter(child.pid, env.DATABASE_URL, applicationName) : undefined;
  if (meter) meters.set(new URL(url).origin, meter);
  return {
    url,
    stop: async () => {
      meters.delete(new URL(url).origin);
      await meter?.close();
      await signalled(child, 'SIGTERM');
    },
  };
}

export interface WorkerProcess {
  readonly pid: number;
  signal(signal: NodeJS.Signals): Promise<void>;
}

/**
 * `gable worker`: it listens on no port, so it is ready when it logs `worker started` (its log is read as JSON
 * lines; warnings and errors after that are passed on to stderr, named).
 */
export async function startWorkerProcess(env: Record<string, string>, name: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['bin/gable.js', 'worker'], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: 'info', LOG_FORMAT: 'json', PGAPPNAME: `bench-${name}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${START_SECONDS} s (BENCH_START_SECONDS)`)),
      START_SECONDS * 1000,
    );
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it started`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: { level?: number; msg?: string };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      if (entry.msg === 'worker started') {
        clearTimeout(timer);
        resolve();
      } else if ((entry.level ?? 0) >= 40) console.error(`${name}: ${line}`);
    });
  });
  await started;
  return { pid: child.pid!, signal: (signal) => signalled(child, signal) };
}

function signalled(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
