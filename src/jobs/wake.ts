// Workers wake when there is work, instead of polling for it (issue 36: an idle server polled its queues every
// 0.5 s, 2,000 transactions a minute). A trigger on pg-boss's job table (migration 2026-11-28T1400) NOTIFYs from
// the transaction that makes a job ready — enqueued, or set to retry — so the notice arrives when that
// transaction commits, in every worker process, whichever process wrote the job:
//   `<task>`        the job can start now: its workers fetch at once;
//   `<task> later`  it starts later (a delayed job, a retry): the waker asks the queue when, and sets a timer.
// A safety sweep asks every task's next start once a minute, so a notice lost with a listener's connection costs
// latency, never a job; after a reconnect the sweep runs at once.
import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

export const JOBS_CHANNEL = 'gable_jobs';
const LATER = ' later';
/** How often every task's next start is asked without a notice (lost notices, timers of a restarted process). */
export const SAFETY_SWEEP_MS = 60_000;
/** setTimeout's limit is 24.8 days; a far job is looked at again by the sweep long before. */
const MAX_TIMER_MS = 60 * 60_000;

type Query = (config: pg.QueryConfig) => Promise<pg.QueryResult>;
/** Per task: a job can start now; ms until the first that cannot yet (null: none). */
type NextStarts = { name: string; ready: boolean; next_in_ms: number | string | null };

export class JobWaker {
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  /** Tasks whose next start is to be asked; one question at a time, the next one takes all that came meanwhile. */
  private readonly toPlan = new Set<string>();
  private planning: Promise<void> | null = null;
  private sweep: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly schema: string,
    private readonly tasks: readonly string[],
    private readonly query: Query,
    /** Makes this process's workers of a task fetch now. */
    private readonly wakeTask: (name: string) => void,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Asks every task's next start now and then once every SAFETY_SWEEP_MS. */
  start(): void {
    this.planAll();
    this.sweep = setInterval(() => this.planAll(), SAFETY_SWEEP_MS);
    this.sweep.unref();
  }

  onNotice(payload: string): void {
    const later = payload.endsWith(LATER);
    const name = later ? payload.slice(0, -LATER.length) : payload;
    if (!this.tasks.includes(name)) return;
    if (later) this.plan([name]);
    else this.wakeTask(name);
  }

  /** After a time without a listener: notices may have been missed. */
  planAll(): void {
    this.plan(this.tasks);
  }

  stop(): void {
    this.stopped = true;
    if (this.sweep) clearInterval(this.sweep);
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private plan(names: readonly string[]): void {
    for (const name of names) this.toPlan.add(name);
    this.planning ??= this.planPending().finally(() => (this.planning = null));
  }

  private async planPending(): Promise<void> {
    while (this.toPlan.size > 0 && !this.stopped) {
      const names = [...this.toPlan];
      this.toPlan.clear();
      try {
        // Two ranges of one partition's ready-jobs index per task (pg-boss's job_i5: name, start_after): whether a
        // job can start now, and when the first one that cannot yet will. Both, because a ready job must not hide
        // a delayed one behind it: once the ready one is done, nothing else would say the delayed one is due.
        const { rows } = await this.query({
          text: `select q.name,
                   exists (select 1 from ${this.schema}.job j
                     where j.name = q.name and j.state < 'active' and j.start_after <= now()) as ready,
                   extract(epoch from (select min(j.start_after) from ${this.schema}.job j
                     where j.name = q.name and j.state < 'active' and j.start_after > now()) - now()) * 1000
                     as next_in_ms
                 from unnest($1::text[]) as q(name)`,
          values: [names],
        });
        for (const row of rows as NextStarts[]) {
          if (row.ready) this.wakeTask(row.name);
          if (row.next_in_ms !== null) this.wakeIn(row.name, Number(row.next_in_ms));
        }
      } catch (error) {
        // The sweep asks again within a minute.
        this.log.warn({ err: error }, 'could not ask the job queue for its next jobs');
      }
    }
  }

  private wakeIn(name: string, dueInMs: number): void {
    if (this.stopped) return;
    if (dueInMs <= 0) {
      this.wakeTask(name);
      return;
    }
    const at = Date.now() + dueInMs;
    const current = this.timers.get(name);
    if (current && current.at <= at) return;
    if (current) clearTimeout(current.timer);
    const timer = setTimeout(
      () => {
        this.timers.delete(name);
        this.wakeTask(name);
        // The next delayed job of this task, if any, gets its own timer.
        this.plan([name]);
      },
      // A few ms late rather than early: a fetch a moment too soon finds nothing and waits for the sweep.
      Math.min(dueInMs + 5, MAX_TIMER_MS),
    );
    timer.unref();
    this.timers.set(name, { at, timer });
  }
}
