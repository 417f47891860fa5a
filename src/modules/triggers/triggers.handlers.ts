// What runs the trigger jobs (triggers.tasks.ts).
import { chunkRowsOf } from '../../jobs/task.js';
import { handleTask } from '../../jobs/handler.js';
import { sweepBrandTriggers } from './brand-triggers.sweep.js';
import { executeTrigger } from './execute.js';
import { executeTriggerTask, sweepBrandTriggersTask } from './triggers.tasks.js';

export const TRIGGERS_HANDLERS = [
  handleTask(executeTriggerTask, (deps, payload) => executeTrigger(deps, payload.trigger, payload.effective_at)),
  handleTask(sweepBrandTriggersTask, (deps, _payload, stopping) =>
    sweepBrandTriggers(deps, stopping, chunkRowsOf(sweepBrandTriggersTask, deps)),
  ),
];
