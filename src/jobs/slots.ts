// One task's jobs in a worker process, each in a slot of its own (issue 34 row 21). pg-boss's `work()` runs a
// fetched batch as one unit and fetches nothing more until the whole batch has ended, so one hung job (a webhook
// receiver that never answers, 15 s) held back every job fetched after it. Here a job frees its slot when it ends,
// whatever the others do, and a free slot fetches at once while there may be ready jobs:
//   - "may be ready" is set by a notice (wake.ts), by a fetch that came back full, and by the last-resort poll;
//     a fetch that comes back short clears it, so an idle task asks nothing until it is woken (issue 36);
//   - one fetch at a time per task, of up to `fetchMax` jobs or the free slots if fewer;
//   - each job is completed or failed alone; completions of the same turn share one statement;
//   - a job that outlives its expiry is failed (as pg-boss's worker did) and its slot freed;
//   - stop() fetches no more, waits for the running jobs (up to a limit) and releases those still running, so
//     another worker runs them at once instead of when they expire (and without spending one of their retries).
import type { FastifyBaseLogger } from 'fastify';

export interface SlotJob {
  readonly id: string;
  readonly data: unknown;
  /** pg-boss returns the job's expiry in seconds (a numeric, sometimes as text). */
  readonly expireInSeconds: number | string;
}

export interface SlotsOptions {
  readonly name: string;
  /** Jobs that run at once. */
  readonly slots: number;
  /** Jobs one fetch takes at most. */
  readonly fetchMax: number;
  /** Fetch on our own after this long without a wake-up (the last resort should notices fail). */
  readonly idlePollMs: number;
  readonly fetch: (batchSize: number) => Promise<SlotJob[]>;
  /** Runs one job; a throw fails it. */
  readonly run: (job: SlotJob) => Promise<void>;
  readonly complete: (ids: string[]) => Promise<void>;
  readonly fail: (ids: string[], message: string) => Promise<void>;
  /** Hands running jobs back to the queue, ready at once (a shutdown that outlived its drain). */
  readonly release: (ids: string[]) => Promise<void>;
  readonly log: FastifyBaseLogger;
}

/** After a fetch that threw (not an empty one): try again this soon. */
const FETCH_RETRY_MS = 1000;

export class TaskSlots {
  private busy = 0;
  /** There may be ready jobs: a free slot fetches. */
  private mayHaveJobs = true;
  private stopped = false;
  private loop: Promise<void> | null = null;
  /** Wakes the fetch loop from its wait (a notice, a freed slot, stop). */
  private nudge: (() => void) | null = null;
  /** Jobs running, by id: settle when the job is completed or failed. */
  private readonly running = new Map<string, Promise<void>>();
  /** Jobs handed back at shutdown: whatever their run does next is not recorded (another worker owns them). */
  private readonly released = new Set<string>();
  private toComplete: string[] = [];
  private completing: Promise<void> | null = null;

  constructor(private readonly options: SlotsOptions) {}

  start(): void {
    this.loop ??= this.fetchLoop();
  }

  /** Jobs may be ready now: fetch as soon as a slot is free. */
  wake(): void {
    this.mayHaveJobs = true;
    this.poke();
  }

  /** Jobs running now (the tests read it). */
  get inFlight(): number {
    return this.busy;
  }

  /** Fetches no more; waits up to `drainMs` for the running jobs, then releases the rest (shut down mid-job). */
  async stop(drainMs: number): Promise<void> {
    this.stopped = true;
    this.poke();
    await this.loop;
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      Promise.all(this.running.values()).then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), drainMs))),
    ]);
    clearTimeout(timer);
    const left = [...this.running.keys()];
    if (drained || left.length === 0) return;
    this.options.log.warn(
      { task: this.options.name, jobs: left.length },
      'jobs still running at the shutdown timeout released to another worker',
    );
    for (const id of left) this.released.add(id);
    await this.options
      .release(left)
      .catch((error: unknown) =>
        this.options.log.error(
          { err: error },
          'could not release the jobs left at shutdown (they run again when they expire)',
        ),
      );
  }

  private poke(): void {
    const nudge = this.nudge;
    this.nudge = null;
    nudge?.();
  }

  private async fetchLoop(): Promise<void> {
    const { slots, fetchMax, idlePollMs } = this.options;
    while (!this.stopped) {
      const free = slots - this.busy;
      if (free > 0 && this.mayHaveJobs) {
        // Cleared before the fetch: a notice that comes while it runs sets it again, and is not lost.
        this.mayHaveJobs = false;
        const size = Math.min(free, fetchMax);
        let jobs: SlotJob[];
        try {
          jobs = await this.options.fetch(size);
        } catch (error) {
          this.options.log.error({ err: error, task: this.options.name }, 'could not fetch jobs');
          this.mayHaveJobs = true;
          await this.wait(FETCH_RETRY_MS);
          continue;
        }
        for (const job of jobs) this.begin(job);
        if (jobs.length === size) this.mayHaveJobs = true;
        continue;
      }
      // Slots all busy (a job's end nudges), or nothing known to be ready (a notice nudges; the poll is the
      // last resort).
      if (await this.wait(free > 0 ? idlePollMs : null)) this.mayHaveJobs = true;
    }
  }

  /** Resolves on a nudge (false) or after `ms` (true); `null` waits for a nudge only. */
  private wait(ms: number | null): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = ms === null ? undefined : setTimeout(() => done(true), ms);
      const done = (timedOut: boolean) => {
        clearTimeout(timer);
        if (this.nudge === nudge) this.nudge = null;
        resolve(timedOut);
      };
      const nudge = () => done(false);
      this.nudge = nudge;
    });
  }

  private begin(job: SlotJob): void {
    this.busy++;
    const settled = this.settle(job).finally(() => {
      this.busy--;
      this.running.delete(job.id);
      this.poke();
    });
    this.running.set(job.id, settled);
  }

  private async settle(job: SlotJob): Promise<void> {
    const { log, name } = this.options;
    const limitMs = Math.max(1, Number(job.expireInSeconds) || 0) * 1000;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.options.run(job),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`handler execution exceeded ${limitMs}ms`)), limitMs);
        }),
      ]);
    } catch (error) {
      clearTimeout(timer);
      if (this.released.has(job.id)) return;
      const message = error instanceof Error ? error.message : String(error);
      log.error({ err: error, job: job.id, task: name }, 'job failed');
      await this.options
        .fail([job.id], message)
        .catch((failure: unknown) => log.error({ err: failure }, 'could not record a failed job'));
      return;
    }
    clearTimeout(timer);
    if (this.released.has(job.id)) return;
    await this.complete(job.id).catch((error: unknown) =>
      // The job stays active until it expires, then runs again: a repeat at worst (jobs are idempotent).
      log.error({ err: error, job: job.id, task: name }, 'could not record a completed job'),
    );
  }

  /** Jobs that end in the same turn are completed by one statement. */
  private complete(id: string): Promise<void> {
    this.toComplete.push(id);
    this.completing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const ids = this.toComplete;
      this.toComplete = [];
      this.completing = null;
      return this.options.complete(ids);
    });
    return this.completing;
  }
}
