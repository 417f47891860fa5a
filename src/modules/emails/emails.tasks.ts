// Job: execute an email campaign at its due_at (emails.send.ts). Idempotent: an executed campaign is skipped.
import { Type } from '@sinclair/typebox';
import { chunkRowsOf, defineTask } from '../../jobs/task.js';
import { executeCampaign } from './emails.send.js';

export const executeCampaignTask = defineTask({
  name: 'emails.execute',
  payload: Type.Object({ campaign: Type.String({ minLength: 36, maxLength: 36 }) }),
  retryLimit: 5,
  retryDelaySeconds: 30,
  // Recipients rendered and queued per transaction: on the embedded database a request waits for one chunk at
  // most (~100 ms), not for the whole campaign (ADR 0039).
  chunkRows: 100,
  handle(deps, payload) {
    return executeCampaign(deps, payload.campaign, chunkRowsOf(this, deps));
  },
});
