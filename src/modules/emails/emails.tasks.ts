// Job: execute an email campaign at its due_at (emails.send.ts). Idempotent: an executed campaign is skipped.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';

export const executeCampaignTask = defineTask({
  name: 'emails.execute',
  payload: Type.Object({ campaign: Type.String({ minLength: 36, maxLength: 36 }) }),
  retryLimit: 5,
  retryDelaySeconds: 30,
  // Recipients rendered and queued per transaction: on the embedded database a request waits for one chunk at
  // most (~100 ms), not for the whole campaign (ADR 0039).
  chunkRows: 100,
});
