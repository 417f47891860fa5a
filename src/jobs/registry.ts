// Every job type the workers know. A task enqueued by name must be listed here: the queue refuses names it
// has no handler for, and startup creates a pg-boss queue per task.
import type { TaskDefinition } from './task.js';
import { purgeExpiredTokensTask } from '../modules/auth/auth.tasks.js';
import { purgeRateLimitWindowsTask } from '../platform/platform.tasks.js';
import { deliverTask, fanOutTask, purgeAttemptsTask } from '../modules/webhooks/webhooks.tasks.js';
import { sendMailTask } from '../mail/mail.tasks.js';
import { executeCampaignTask } from '../modules/emails/emails.tasks.js';
import { renderInstanceTask } from '../modules/templates/instances.tasks.js';

export const TASKS: readonly TaskDefinition[] = [
  purgeExpiredTokensTask,
  purgeRateLimitWindowsTask,
  fanOutTask,
  deliverTask,
  purgeAttemptsTask,
  sendMailTask,
  executeCampaignTask,
  renderInstanceTask,
];
