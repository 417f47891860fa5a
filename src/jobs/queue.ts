// pg-boss on the application's own database, through the application's own pool (PGlite has one session).
// Jobs are enqueued with the caller's Kysely executor, so a job and the write that causes it commit together.
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { Value } from '@sinclair/typebox/value';
import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import { slotsOf, type TaskDefinition } from './task.js';
import type { DB } from '../db/types.js';
import { JOBS_CHANNEL, JobWaker } from './wake.js';
import { TaskSlots } from './slots.js';
import { CronTicker } from './cron-ticker.js';

export const QUEUE_SCHEMA = 'pgboss';

type RunJob = (task: TaskDefinition, payload: unknown, stopping: AbortSignal) => Promise<void>;

/** LISTENs on a channel for the life of the queue (db/listener.ts); answers the UNLISTEN. */
export type Listen = (
  channel: string,
  onPayload: (payload: string) => void,
  onReconnected: () => void,
) => Promise<() => Promise<void>>;

/**
 * Seconds between a worker's own fetches when nothing woke it. Workers are woken by their jobs' notices and the
 * waker's timers and sweep (wake.ts); this poll is only the last resort should all of those fail.
 */
const IDLE_POLL_SECONDS = 600;
/** A cron job's singleton key: with a one-minute singleton slot, one job per task and minute (cron-ticker.ts). */
const CRON_SINGLETON_KEY = 'cron';

/** Jobs one fetch of a task takes at most, unless the task names its batch size (see startSlots). */
const FETCH_MAX = 16;
/**
 * On stop, how long running jobs may take to end before they are released to another worker, unless the caller
 * says (the processes pass SHUTDOWN_TIMEOUT_SECONDS' share; platform/shutdown.ts).
 */
const DRAIN_MS = 10_000;
/** Tries of a queue's creation that meets another process creating it (see createQueue). */
const CREATE_QUEUE_ATTEMPTS = 5;
/** deadlock_detected, and unique_violation / duplicate_table of a partition another process has just made. */
const RACING_CREATE_CODES = new Set(['40P01', '23505', '42P07']);
/** Jobs per insert statement in enqueueMany (one JSON parameter, so no parameter limit; keeps statements small). */
const INSERT_CHUNK = 1000;

/** pg-boss's db interface over a Kysely executor: a job written with it commits with the caller's transaction. */
function kyselyExecutor(executor: Kysely<DB>) {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      const result = await executor.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows as unknown[] };
    },
  };
}

export interface ManyOptions<P> {
  /** When the jobs may start: one instant for all, or each job's own. */
  startAfter?: Date | ((payload: P) => Date);
  priority?: number;
}

export interface EnqueueOptions {
  startAfter?: Date;
  /**
   * Seconds from the database's now, instead of `startAfter`. For a job that found itself early by this process's
   * clock: waiting the difference on the queue's own clock always moves it on, where `startAfter` = the planned
   * instant is already due again when the database's clock runs ahead, and the job would come straight back.
   */
  startIn?: number;
  /** Idempotency: pg-boss keeps one live job per (name, singletonKey). */
  singletonKey?: string;
  /** Workers fetch higher first (default 0); among equals, the oldest first. */
  priority?: number;
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly tasks = new Map<string, TaskDefinition>();
  private started = false;
  private readonly stopping = new AbortController();
  /** Each task's job slots in this process, to wake them (`wake`). */
  private readonly slots = new Map<string, TaskSlots>();
  private readonly daemons: Promise<void>[] = [];
  private waker: JobWaker | null = null;
  private ticker: CronTicker | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  /** Settles when the workers have stopped (stopWorking); one stop however many callers ask. */
  private stoppedWorking: Promise<void> | null = null;

  constructor(
    /** Runs pg-boss's own statements on a pooled connection (Database.query: timed, reported when slow). */
    private readonly query: (config: pg.QueryConfig) => Promise<pg.QueryResult>,
    private readonly log: FastifyBaseLogger,
    private readonly options: { workers: boolean; embedded?: boolean; listen: Listen },
  ) {
    this.boss = new PgBoss({
      // pg-boss's type says `values` is always given; its plain statements pass none.
      db: { executeSql: (text: string, values?: unknown[]) => query({ text, values: values ?? [] }) },
      schema: QUEUE_SCHEMA,
      // Only worker processes run maintenance; API-only processes just enqueue.
      supervise: options.workers,
      // Jobs of a killed worker stay active until they expire; look for them every 30 s (default 120 s).
      maintenanceIntervalSeconds: 30,
      // Cron tasks tick by our own ticker (cron-ticker.ts), not pg-boss's timekeeper.
      schedule: false,
      migrate: true,
    });
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
  }

  /** Creates a queue per task and, in a worker process, starts consuming them. */
  async start(
    tasks: readonly TaskDefinition[],
    run: RunJob,
    daemons: readonly ((stopping: AbortSignal) => Promise<void>)[] = [],
  ): Promise<void> {
    await this.boss.start();
    this.started = true;
    const existing = new Set((await this.boss.getQueues()).map((queue) => queue.name));
    for (const task of tasks) {
      this.tasks.set(task.name, task);
      if (!existing.has(task.name)) await this.createQueue(task);
      if (!this.options.workers) continue;
      this.startSlots(task, run);
      if (task.runAtStart) await this.boss.send(task.name, {});
    }
    if (!this.options.workers) return;
    await this.startWaking(tasks);
    this.ticker = new CronTicker(
      tasks.flatMap((task) => (task.cron ? [{ name: task.name, cron: task.cron }] : [])),
      (names) => this.sendCronJobs(names),
      this.log,
    );
    this.ticker.start();
    for (const daemon of daemons) {
      this.daemons.push(
        daemon(this.stopping.signal).catch((error: unknown) =>
          this.log.error({ err: error }, 'job queue daemon failed'),
        ),
      );
    }
  }

  /**
   * A task's queue, made once for the database (a queue that exists is left as it is, as pg-boss does). Processes
   * that start together on a new database (`serve` and `worker` of one compose up) create the same queues at
   * once, and pg-boss's create_queue (a row, then a partition of the job table) can deadlock with itself there:
   * PostgreSQL cancels one side, whose queue the other side has made or is making, so it tries again.
   */
  private async createQueue(task: TaskDefinition): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.boss.createQueue(task.name, {
          name: task.name,
          retryLimit: task.retryLimit ?? 5,
          retryDelay: task.retryDelaySeconds ?? 30,
          retryBackoff: task.retryBackoff ?? true,
          expireInSeconds: task.expireInSeconds ?? 15 * 60,
        });
        return;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt >= CREATE_QUEUE_ATTEMPTS || !(code && RACING_CREATE_CODES.has(code))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
      }
    }
  }

  /**
   * Each task runs its jobs in slots of their own (slots.ts), not pg-boss's `work()`: that runs a fetched batch as
   * one unit and fetches nothing more until the whole batch has ended, so one hung job (a webhook receiver that
   * never answers) held back every job behind it. A job frees its slot when it ends, and a free slot fetches at
   * once while there may be ready jobs. A task that names its batch size (a push fan-out of many short jobs) gets
   * `concurrency` × that many slots and fetches that many at once.
   */
  private startSlots(task: TaskDefinition, run: RunJob): void {
    const slots = new TaskSlots({
      name: task.name,
      slots: slotsOf(task, this.options.embedded),
      fetchMax: task.batchSize ?? FETCH_MAX,
      idlePollMs: IDLE_POLL_SECONDS * 1000,
      fetch: (batchSize) => this.boss.fetch<unknown>(task.name, { batchSize }),
      run: async (job) => {
        if (!Value.Check(task.payload, job.data)) throw new Error(`Invalid payload for job ${task.name} ${job.id}`);
        await run(task, job.data, this.stopping.signal);
      },
      complete: (ids) => this.boss.complete(task.name, ids),
      // One statement per job: pg-boss's types take an output only with a single id.
      fail: async (ids, message) => {
        await Promise.all(ids.map((id) => this.boss.fail(task.name, id, { message })));
      },
      release: (ids) => this.release(task.name, ids),
      log: this.log,
    });
    this.slots.set(task.name, slots);
    slots.start();
  }

  /** Listens for the notices of ready jobs (wake.ts). */
  private async startWaking(tasks: readonly TaskDefinition[]): Promise<void> {
    const waker = new JobWaker(
      QUEUE_SCHEMA,
      tasks.map((task) => task.name),
      this.query,
      (name) => this.wake(name),
      this.log,
    );
    this.waker = waker;
    this.unlisten = await this.options.listen(
      JOBS_CHANNEL,
      (payload) => waker.onNotice(payload),
      () => waker.planAll(),
    );
    waker.start();
  }

  /**
   * One job of each named cron task for the database's current minute, in one statement: the one-minute singleton
   * slot drops the jobs another process's tick of the same minute has sent (pg-boss inserts on conflict do nothing).
   */
  async sendCronJobs(names: readonly string[]): Promise<void> {
    await this.boss.insert(
      names.map((name) => ({ name, data: {}, singletonKey: CRON_SINGLETON_KEY, singletonSeconds: 60 })),
    );
  }

  /** Makes this process's workers of a task fetch now instead of at their next poll. */
  private wake(name: string): void {
    this.slots.get(name)?.wake();
  }

  /** Enqueue inside the caller's transaction (pass `trx`) or on its own (pass `db`). */
  async enqueue<S extends TSchema>(
    executor: Kysely<DB>,
    task: TaskDefinition<S>,
    payload: Static<S>,
    options: EnqueueOptions = {},
  ): Promise<string | null> {
    if (!this.started) throw new Error('The job queue is not started');
    if (!this.tasks.has(task.name))
      throw new Error(`No handler is registered for job ${task.name} (add it to src/registry.ts)`);
    if (!Value.Check(task.payload, payload)) throw new Error(`Invalid payload for job ${task.name}`);
    const { startIn, ...rest } = options;
    return this.boss.send(task.name, payload as object, {
      ...rest,
      // pg-boss reads a number as seconds after its now(); it must be positive to count.
      ...(startIn !== undefined ? { startAfter: Math.max(1, Math.ceil(startIn)) } : {}),
      db: kyselyExecutor(executor),
    });
  }

  /**
   * Many jobs of one task in one statement (same transaction rules as `enqueue`). `startAfter` may differ per job:
   * give a function of the payload (re-planned triggers each fire at their own instant).
   */
  async enqueueMany<S extends TSchema>(
    executor: Kysely<DB>,
    task: TaskDefinition<S>,
    payloads: readonly Static<S>[],
    options: ManyOptions<Static<S>> = {},
  ): Promise<void> {
    if (payloads.length === 0) return;
    if (!this.started) throw new Error('The job queue is not started');
    if (!this.tasks.has(task.name))
      throw new Error(`No handler is registered for job ${task.name} (add it to src/registry.ts)`);
    for (const payload of payloads)
      if (!Value.Check(task.payload, payload)) throw new Error(`Invalid payload for job ${task.name}`);
    const { startAfter } = options;
    const startOf =
      typeof startAfter === 'function'
        ? (data: Static<S>) => startAfter(data).toISOString()
        : () => startAfter?.toISOString();
    for (let i = 0; i < payloads.length; i += INSERT_CHUNK) {
      const jobs = payloads.slice(i, i + INSERT_CHUNK).map((data) => {
        const start = startOf(data);
        return {
          name: task.name,
          data: data as object,
          ...(start ? { startAfter: start } : {}),
          ...(options.priority ? { priority: options.priority } : {}),
        };
      });
      await this.boss.insert(jobs, { db: kyselyExecutor(executor) });
    }
  }

  /**
   * Hands running jobs back, ready at once, as if never fetched: pg-boss has no such call (`fail` waits out the
   * retry delay and spends a retry). `retry` with no start makes the next fetch leave the retry count as it is,
   * and its trigger notices wake the other workers (migration 2026-11-28T1400).
   */
  private async release(name: string, ids: string[]): Promise<void> {
    await this.query({
      text: `update ${QUEUE_SCHEMA}.job set state = 'retry', start_after = now(), started_on = null
             where name = $1 and id = any($2::uuid[]) and state = 'active'`,
      values: [name, ids],
    });
  }

  /**
   * Stops working, the first half of a shutdown: fetches nothing more, stops the daemons, waits up to `drainMs`
   * for the running jobs and releases the rest. Enqueueing still works (a server's in-flight requests may enqueue
   * while they drain); `stop` ends that.
   */
  stopWorking(drainMs = DRAIN_MS): Promise<void> {
    this.stoppedWorking ??= (async () => {
      this.stopping.abort();
      this.ticker?.stop();
      this.waker?.stop();
      await this.unlisten?.();
      await Promise.all([...this.daemons, ...[...this.slots.values()].map((slots) => slots.stop(drainMs))]);
    })();
    return this.stoppedWorking;
  }

  async stop(drainMs = DRAIN_MS): Promise<void> {
    if (!this.started) return;
    await this.stopWorking(drainMs);
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
  }
}
