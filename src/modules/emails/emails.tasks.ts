// Job: execute an email campaign at its due_at (emails.send.ts). Idempotent: an executed campaign is skipped.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../../jobs/task.js';
import { executeCampaign } from './emails.send.js';

export const executeCampaignTask = defineTask({
  name: 'emails.execute',
  payload: Type.Object({ campaign: Type.String({ minLength: 36, maxLength: 36 }) }),
  retryLimit: 5,
  retryDelaySeconds: 30,
  handle: async (deps, payload) => executeCampaign(deps, payload.campaign),
});
