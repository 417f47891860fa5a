// Job: execute a trigger at its fire time (execute.ts). The payload carries the planned time: a job left behind
// by a re-plan finds another time on the row and does nothing; the row lock makes execution happen once.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';

export const executeTriggerTask = defineTask({
  name: 'triggers.execute',
  payload: Type.Object({
    trigger: Type.String({ minLength: 36, maxLength: 36 }),
    effective_at: Type.String({ maxLength: 40 }),
  }),
  retryLimit: 5,
  retryDelaySeconds: 30,
});

/** Every minute (and at a worker's start): brand triggers whose occurrences fired since their last sweep. */
export const sweepBrandTriggersTask = defineTask({
  name: 'triggers.brand-sweep',
  payload: Type.Object({}),
  cron: '* * * * *',
  runAtStart: true,
  retryLimit: 2,
  retryDelaySeconds: 10,
  // Contacts scheduled per transaction (one campaign each): on the embedded database a request waits for one
  // chunk at most, not for a whole brand's birthdays (ADR 0039).
  chunkRows: 100,
});
