// What runs the notifications jobs (push.tasks.ts).
import { handleTask } from '../../jobs/handler.js';
import { attemptPush } from './push.service.js';
import { pushTask } from './push.tasks.js';

export const NOTIFICATIONS_HANDLERS = [
  handleTask(pushTask, (deps, payload) => attemptPush(deps, payload.delivery, payload.attempt)),
];
