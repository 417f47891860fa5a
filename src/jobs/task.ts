// A job type: its name, payload schema (checked when enqueued and again when run) and handler.
import type { Static, TSchema } from '@sinclair/typebox';
import type { Deps } from '../deps.js';

export interface TaskDefinition<S extends TSchema = TSchema> {
  readonly name: string;
  readonly payload: S;
  // Method syntax on purpose: the registry holds tasks of every payload type (checked again at run time).
  handle(deps: Deps, payload: Static<S>): Promise<void>;
  /** Run on this cron schedule (UTC) with an empty payload. */
  readonly cron?: string;
  readonly retryLimit?: number;
  readonly retryDelaySeconds?: number;
  readonly retryBackoff?: boolean;
  readonly expireInSeconds?: number;
  /** Jobs of this task run at once per worker process (default 1): tasks that wait on the network want more. */
  readonly concurrency?: number;
}

export function defineTask<S extends TSchema>(definition: TaskDefinition<S>): TaskDefinition<S> {
  return definition;
}
