// What runs the mail jobs (mail.tasks.ts).
import { handleTask } from '../jobs/handler.js';
import { recoverStalledMessages, sendQueuedMessages } from './mail.service.js';
import { recoverMailTask, sendMailTask } from './mail.tasks.js';

export const MAIL_HANDLERS = [
  handleTask(sendMailTask, (deps, payload) => sendQueuedMessages(deps, payload.messages)),
  handleTask(recoverMailTask, (deps) => recoverStalledMessages(deps)),
];
