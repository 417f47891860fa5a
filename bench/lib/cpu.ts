// CPU spent serving a scenario: the server process plus its PostgreSQL backends. On this shared 2-core machine
// req/s swings 2× with whatever else runs, but the CPU one request costs hardly moves, so a scenario's CPU per
// request next to the baseline's says "how much more work is this request" even when req/s cannot.
import pg from 'pg';
import { processCpuMs } from '../../test/helpers/process-cpu.js';

/** CPU milliseconds used so far by each process: the server and its database sessions open at call time. */
export type CpuSnapshot = Map<number, number>;

export interface CpuMeter {
  read(): Promise<CpuSnapshot>;
  close(): Promise<void>;
}

/**
 * CPU milliseconds used between two snapshots (a session opened in between counts from zero): in all, and by the
 * server process alone (the first process of a snapshot), so a figure says which side a request's cost is on.
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): { total: number; server: number } {
  let total = 0;
  let server: number | null = null;
  for (const [pid, now] of after) {
    const used = now - (before.get(pid) ?? 0);
    total += used;
    server ??= used;
  }
  return { total, server: server ?? 0 };
}

/**
 * Meters `pid` and the PostgreSQL sessions named `applicationName` (the server's pool connects with
 * PGAPPNAME set to it; bench/lib/processes.ts does that). Backends are read from /proc, so the database must run
 * on this machine, as it does for the bench.
 */
export function cpuMeter(pid: number, databaseUrl: string, applicationName: string): CpuMeter {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-cpu-meter' });
  const connected = client.connect();
  return {
    async read() {
      await connected;
      const { rows } = await client.query<{ pid: number }>(
        'select pid from pg_stat_activity where application_name = $1',
        [applicationName],
      );
      const pids = [pid, ...rows.map((r) => r.pid)];
      const times = await Promise.all(pids.map(processCpuMs));
      return new Map(pids.map((p, i) => [p, times[i]!]));
    },
    async close() {
      await connected.catch(() => undefined);
      await client.end();
    },
  };
}
