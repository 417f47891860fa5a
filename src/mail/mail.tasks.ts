// Job: send a batch of queued ledger rows (src/mail/mail.service.ts). Idempotent: finished rows are skipped.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../jobs/task.js';
import { sendQueuedMessages } from './mail.service.js';

/** Messages per job: small enough that a retry after a crash redoes little, large enough to keep SMTP busy. */
export const SEND_BATCH = 50;

export const sendMailTask = defineTask({
  name: 'mail.send',
  payload: Type.Object({ messages: Type.Array(Type.String({ minLength: 36, maxLength: 36 }), { minItems: 1, maxItems: SEND_BATCH }) }),
  retryLimit: 8,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 10 * 60,
  handle: async (deps, payload) => {
    await sendQueuedMessages(deps, payload.messages);
  },
});
