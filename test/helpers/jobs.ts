// Runs queued pg-boss jobs in the test process, as a worker would, through the task registry's handlers.
// (Test apps do not run workers, so a test decides when jobs run.)
import { sql } from 'kysely';
import type { Deps } from '../../src/platform/deps.js';
import { handlerOf } from '../../src/registry.js';

export interface QueuedJob {
  id: string;
  name: string;
  data: unknown;
  startAfter: Date;
}

/** Jobs waiting to run (state created or retry), oldest first; `names` narrows to those tasks. */
export async function queuedJobs(deps: Deps, names?: string[]): Promise<QueuedJob[]> {
  const rows = await sql<{ id: string; name: string; data: unknown; start_after: Date }>`
    select id, name, data, start_after from pgboss.job
    where state in ('created', 'retry') ${names ? sql`and name in (${sql.join(names)})` : sql``}
    order by created_on, id`.execute(deps.db);
  return rows.rows.map((r) => ({ id: r.id, name: r.name, data: r.data, startAfter: new Date(r.start_after) }));
}

/**
 * Runs every queued job of `names` (and the jobs those jobs enqueue) until none is left; a job whose handler
 * throws is left in state `retry`, and the error is rethrown after the others ran unless `tolerateFailures`.
 * Only jobs due by `dueBy` run (default: the later of the test clock and the real time, since pg-boss stamps a job
 * without startAfter with the database's now).
 */
export async function runQueuedJobs(
  deps: Deps,
  names: string[],
  options: { dueBy?: Date; tolerateFailures?: boolean } = {},
): Promise<number> {
  let ran = 0;
  const failed = new Set<string>();
  let firstError: unknown;
  // A job that keeps enqueueing a due copy of itself (e.g. one planned by a clock ahead of the test clock) would
  // spin here for ever: fail loudly instead.
  for (let round = 0; ; round++) {
    if (round === 1000)
      throw new Error(
        `runQueuedJobs: jobs of ${names.join(', ')} still due after 1,000 rounds; one re-enqueues itself`,
      );
    const dueBy = options.dueBy ?? new Date(Math.max(deps.clock.now().getTime(), Date.now()));
    const jobs = (await queuedJobs(deps, names)).filter((j) => !failed.has(j.id) && j.startAfter <= dueBy);
    if (jobs.length === 0) break;
    for (const job of jobs) {
      const handled = handlerOf(job.name);
      try {
        await handled.run(deps, job.data, new AbortController().signal);
        await sql`update pgboss.job set state = 'completed', completed_on = now() where id = ${job.id}::uuid`.execute(
          deps.db,
        );
        ran++;
      } catch (error) {
        failed.add(job.id);
        firstError ??= error;
        await sql`update pgboss.job set state = 'retry', retry_count = retry_count + 1 where id = ${job.id}::uuid`.execute(
          deps.db,
        );
      }
    }
  }
  if (firstError && !options.tolerateFailures) throw firstError;
  return ran;
}
