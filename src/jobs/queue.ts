// pg-boss on the application's own database, through the application's own pool (PGlite has one session).
// Jobs are enqueued with the caller's Kysely executor, so a job and the write that causes it commit together.
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { Value } from '@sinclair/typebox/value';
import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { TaskDefinition } from './task.js';
import type { DB } from '../db/types.js';

export const QUEUE_SCHEMA = 'pgboss';

export interface EnqueueOptions {
  startAfter?: Date;
  /** Idempotency: pg-boss keeps one live job per (name, singletonKey). */
  singletonKey?: string;
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly tasks = new Map<string, TaskDefinition>();
  private started = false;

  constructor(
    pool: pg.Pool,
    private readonly log: FastifyBaseLogger,
    private readonly options: { workers: boolean; pollingIntervalSeconds?: number },
  ) {
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => pool.query(text, values) },
      schema: QUEUE_SCHEMA,
      // Only worker processes run maintenance and cron; API-only processes just enqueue.
      supervise: options.workers,
      schedule: options.workers,
      migrate: true,
    });
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
  }

  /** Creates a queue per task and, in a worker process, starts consuming them. */
  async start(tasks: readonly TaskDefinition[], run: (task: TaskDefinition, payload: unknown) => Promise<void>): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const task of tasks) {
      this.tasks.set(task.name, task);
      await this.boss.createQueue(task.name, {
        name: task.name,
        retryLimit: task.retryLimit ?? 5,
        retryDelay: task.retryDelaySeconds ?? 30,
        retryBackoff: task.retryBackoff ?? true,
        expireInSeconds: task.expireInSeconds ?? 15 * 60,
      });
      if (!this.options.workers) continue;
      // pg-boss runs a worker's jobs one after the other: `concurrency` workers poll the queue side by side.
      for (let i = 0; i < (task.concurrency ?? 1); i++) {
        await this.boss.work(task.name, { batchSize: 1, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2 }, async ([job]) => {
          if (!job) return;
          if (!Value.Check(task.payload, job.data)) throw new Error(`Invalid payload for job ${task.name} ${job.id}`);
          await run(task, job.data);
        });
      }
      if (task.cron) await this.boss.schedule(task.name, task.cron, {});
    }
  }

  /** Enqueue inside the caller's transaction (pass `trx`) or on its own (pass `db`). */
  async enqueue<S extends TSchema>(executor: Kysely<DB>, task: TaskDefinition<S>, payload: Static<S>, options: EnqueueOptions = {}): Promise<string | null> {
    if (!this.started) throw new Error('The job queue is not started');
    if (!this.tasks.has(task.name)) throw new Error(`No handler is registered for job ${task.name} (add it to src/jobs/registry.ts)`);
    if (!Value.Check(task.payload, payload)) throw new Error(`Invalid payload for job ${task.name}`);
    return this.boss.send(task.name, payload as object, {
      ...options,
      db: {
        executeSql: async (text, values) => {
          const result = await executor.executeQuery(CompiledQuery.raw(text, values));
          return { rows: result.rows as unknown[] };
        },
      },
    });
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
  }
}
