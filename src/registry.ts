// Every job type the workers know, with what runs it. A task enqueued by name must be listed here: the queue
// refuses names it has no handler for, and startup creates a pg-boss queue per task. Job types are declared in
// the modules' `*.tasks.ts` (services import those to enqueue); their handlers in `*.handlers.ts`, imported here
// only, so no service imports the code that runs it back.
import type { Daemon, HandledTask } from './jobs/handler.js';
import { AUTH_HANDLERS } from './modules/auth/auth.handlers.js';
import { PLATFORM_HANDLERS } from './platform/platform.handlers.js';
import { WEBHOOKS_HANDLERS } from './modules/webhooks/webhooks.handlers.js';
import { MAIL_HANDLERS } from './mail/mail.handlers.js';
import { fanOutPump } from './modules/webhooks/pump.js';
import { EMAILS_HANDLERS } from './modules/emails/emails.handlers.js';
import { TEMPLATES_HANDLERS } from './modules/templates/templates.handlers.js';
import { EXTMAIL_HANDLERS } from './modules/extmail/extmail.handlers.js';
import { NOTIFICATIONS_HANDLERS } from './modules/notifications/notifications.handlers.js';
import { SAVED_SEARCHES_HANDLERS } from './modules/saved-searches/saved-searches.handlers.js';
import { TRIGGERS_HANDLERS } from './modules/triggers/triggers.handlers.js';
import { LISTINGS_HANDLERS } from './modules/listings/listings.handlers.js';

export const TASKS: readonly HandledTask[] = [
  ...AUTH_HANDLERS,
  ...PLATFORM_HANDLERS,
  ...WEBHOOKS_HANDLERS,
  ...MAIL_HANDLERS,
  ...EMAILS_HANDLERS,
  ...TEMPLATES_HANDLERS,
  ...EXTMAIL_HANDLERS,
  ...NOTIFICATIONS_HANDLERS,
  ...SAVED_SEARCHES_HANDLERS,
  ...TRIGGERS_HANDLERS,
  ...LISTINGS_HANDLERS,
];

/** The handled task of a job name (tests run queued jobs through it, as a worker would). */
export function handlerOf(name: string): HandledTask {
  const handled = TASKS.find((entry) => entry.task.name === name);
  if (!handled) throw new Error(`No handler is registered for job ${name} (add it to src/registry.ts)`);
  return handled;
}

/** Loops every worker process runs for its whole life, next to the job workers (see Daemon). */
export const DAEMONS: readonly Daemon[] = [fanOutPump];
