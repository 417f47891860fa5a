// The CPU a process has used so far, from /proc (Linux): the benches' CPU per request, the responsiveness test's idle cost.
import { readFile } from 'node:fs/promises';

const TICKS_PER_SECOND = 100; // USER_HZ, the unit of /proc/<pid>/stat times (getconf CLK_TCK)

/** Cumulative user + system CPU of a process (all its threads), in milliseconds; 0 once it is gone. */
export async function processCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return 0;
  // Fields after the command name (which may hold spaces, hence the last ')'): utime is the 14th, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
