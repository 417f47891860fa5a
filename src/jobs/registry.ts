// Every job type the workers know. A task enqueued by name must be listed here: the queue refuses names it
// has no handler for, and startup creates a pg-boss queue per task.
import type { Daemon, TaskDefinition } from './task.js';
import { purgeExpiredTokensTask } from '../modules/auth/auth.tasks.js';
import { purgeRateLimitWindowsTask } from '../platform/platform.tasks.js';
import { deliverTask, fanOutTask, purgeAttemptsTask } from '../modules/webhooks/webhooks.tasks.js';
import { recoverMailTask, sendMailTask } from '../mail/mail.tasks.js';
import { fanOutPump } from '../modules/webhooks/pump.js';
import { executeCampaignTask } from '../modules/emails/emails.tasks.js';
import { renderInstanceTask } from '../modules/templates/instances.tasks.js';
import { syncDueTask, syncTask } from '../modules/extmail/extmail.tasks.js';
import { pushTask } from '../modules/notifications/push.tasks.js';
import { matchEventsTask } from '../modules/saved-searches/matching.tasks.js';
import { deliverMatchesTask, digestsTask } from '../modules/saved-searches/delivery.tasks.js';
import { executeTriggerTask, sweepBrandTriggersTask } from '../modules/triggers/triggers.tasks.js';
import { refreshRecordsTask } from '../modules/listings/listings.tasks.js';

export const TASKS: readonly TaskDefinition[] = [
  purgeExpiredTokensTask,
  purgeRateLimitWindowsTask,
  fanOutTask,
  deliverTask,
  purgeAttemptsTask,
  sendMailTask,
  executeCampaignTask,
  renderInstanceTask,
  recoverMailTask,
  syncTask,
  syncDueTask,
  pushTask,
  matchEventsTask,
  deliverMatchesTask,
  digestsTask,
  executeTriggerTask,
  sweepBrandTriggersTask,
  refreshRecordsTask,
];

/** Loops every worker process runs for its whole life, next to the job workers (see Daemon). */
export const DAEMONS: readonly Daemon[] = [fanOutPump];
