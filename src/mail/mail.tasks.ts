// Jobs of the mail ledger (src/mail/mail.service.ts; handlers in mail.handlers.ts): send a batch of queued rows
// (idempotent: finished rows are skipped), and recover rows whose job was lost.
import { Type } from '@sinclair/typebox';
import { defineTask } from '../jobs/task.js';

/** Messages per job: small enough that a retry after a crash redoes little, large enough to keep SMTP busy. */
export const SEND_BATCH = 50;

export const sendMailTask = defineTask({
  name: 'mail.send',
  payload: Type.Object({
    messages: Type.Array(Type.String({ minLength: 36, maxLength: 36 }), { minItems: 1, maxItems: SEND_BATCH }),
  }),
  retryLimit: 8,
  retryDelaySeconds: 30,
  retryBackoff: true,
  // A job that outlives this is retried while it may still run: harmless, a message is claimed by one job at a
  // time (the ledger lease). Short, so a batch whose worker died is picked up again soon.
  expireInSeconds: 5 * 60,
  // Four batches at once per worker (5 messages in flight each): the ledger's round trips overlap the SMTP pool's.
  concurrency: 4,
});

/** A due message still `queued` after this long lost its job (jobs run within seconds). */
export const STALE_QUEUED_SECONDS = 15 * 60;

export const recoverMailTask = defineTask({
  name: 'mail.recover',
  payload: Type.Object({}),
  cron: '* * * * *',
  runAtStart: true,
  retryLimit: 1,
});
