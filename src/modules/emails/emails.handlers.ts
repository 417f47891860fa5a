// What runs the email campaign jobs (emails.tasks.ts).
import { chunkRowsOf } from '../../jobs/task.js';
import { handleTask } from '../../jobs/handler.js';
import { executeCampaign } from './emails.send.js';
import { executeCampaignTask } from './emails.tasks.js';

export const EMAILS_HANDLERS = [
  handleTask(executeCampaignTask, (deps, payload) =>
    executeCampaign(deps, payload.campaign, chunkRowsOf(executeCampaignTask, deps)),
  ),
];
