// What runs a job type (handleTask, in a module's `*.handlers.ts`) and the loops beside the workers (Daemon): the
// half of a task that needs the server's dependencies. Task definitions (task.ts) name none, so the queue can
// import them; only the job registry imports these.
import type { Static, TSchema } from '@sinclair/typebox';
import type { Deps } from '../platform/deps.js';
import type { TaskDefinition } from './task.js';

/**
 * A loop that runs for the life of a worker process (e.g. a pump woken by NOTIFY), next to the job workers.
 * It must return soon after `stopping` aborts; the queue waits for it before releasing the pool.
 */
export interface Daemon {
  readonly name: string;
  run(deps: Deps, stopping: AbortSignal): Promise<void>;
}

/**
 * Runs one job (what it returns, e.g. a service's counts, is not kept). `stopping` aborts when the process shuts down: a handler that loops (a pump) ends its run early
 * and leaves the rest to the next run, so shutdown never closes the pool under a running job.
 */
export type TaskHandler<S extends TSchema> = (
  deps: Deps,
  payload: Static<S>,
  stopping: AbortSignal,
) => Promise<unknown>;

/** A job type with what runs it: the registry's entries (payloads of every type, checked again at run time). */
export interface HandledTask {
  readonly task: TaskDefinition;
  run(deps: Deps, payload: unknown, stopping: AbortSignal): Promise<void>;
}

export function handleTask<S extends TSchema>(task: TaskDefinition<S>, handler: TaskHandler<S>): HandledTask {
  return {
    task,
    async run(deps, payload, stopping) {
      await handler(deps, payload as Static<S>, stopping);
    },
  };
}
