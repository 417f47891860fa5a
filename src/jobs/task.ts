// A job type: its name, payload schema (checked when enqueued and again when run) and options. A `*.tasks.ts` file
// declares job types and imports no service, so a service can import it to enqueue without a cycle; what runs
// each job is attached beside it in a `*.handlers.ts` (handleTask, handler.ts), which only the registry imports.
// This file names no Deps, so the queue (which Deps holds) can import it without a cycle.
import type { TSchema } from '@sinclair/typebox';

export interface TaskDefinition<S extends TSchema = TSchema> {
  readonly name: string;
  readonly payload: S;
  /** Run on this cron schedule (UTC) with an empty payload. */
  readonly cron?: string;
  readonly retryLimit?: number;
  readonly retryDelaySeconds?: number;
  readonly retryBackoff?: boolean;
  readonly expireInSeconds?: number;
  /** Jobs of this task run at once per worker process (default 1): tasks that wait on the network want more. */
  readonly concurrency?: number;
  /** Also run once (empty payload) whenever a worker process starts: a sweeper catches up after a crash at once. */
  readonly runAtStart?: boolean;
  /**
   * For a task of many short jobs (a push fan-out): `concurrency` × this many jobs run at once, and one fetch takes
   * up to this many (default: `concurrency` jobs at once, fetched up to 16 at a time, queue.ts). Each job has a
   * slot of its own either way (slots.ts): one that is slow holds back no other.
   */
  readonly batchSize?: number;
  /** The same on the embedded database (one session: more jobs at once only queue on it); default `concurrency`. */
  readonly embeddedConcurrency?: number;
  /**
   * Rows one transaction of this task handles at most, for a task that touches many rows (a campaign's recipients,
   * a sweep's contacts): it works in chunks of this size with a commit between them, so on the embedded database
   * a request waits for one chunk, never for the whole job (ADR 0039). The handler reads it with
   * `chunkRowsOf(task, deps)`, so the size is declared here, with the task, and nowhere else.
   */
  readonly chunkRows?: number;
  /**
   * The same on the embedded database (default `chunkRows`), where a transaction holds the only session and every
   * request waits for it; on PostgreSQL requests have sessions of their own, and larger chunks cost less overall.
   */
  readonly embeddedChunkRows?: number;
}

/**
 * Jobs of this task that run at once in one worker process (slots.ts): its concurrency on this database, times its
 * batch size where it names one.
 */
export function slotsOf(
  task: Pick<TaskDefinition, 'concurrency' | 'embeddedConcurrency' | 'batchSize'>,
  embedded = false,
): number {
  const concurrency = Math.max(1, (embedded ? task.embeddedConcurrency : undefined) ?? task.concurrency ?? 1);
  return task.batchSize ? concurrency * task.batchSize : concurrency;
}

/** The task's declared chunk size on this database; a task whose handler works in chunks must declare one. */
export function chunkRowsOf(
  task: Pick<TaskDefinition, 'name' | 'chunkRows' | 'embeddedChunkRows'>,
  deps: { config: { embedded: boolean } },
): number {
  const rows = (deps.config.embedded ? task.embeddedChunkRows : undefined) ?? task.chunkRows;
  if (!rows) throw new Error(`Task ${task.name} works in chunks but declares no chunkRows`);
  return rows;
}

export function defineTask<S extends TSchema>(definition: TaskDefinition<S>): TaskDefinition<S> {
  return definition;
}
