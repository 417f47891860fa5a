// What runs the auth module's jobs (auth.tasks.ts).
import { handleTask } from '../../jobs/handler.js';
import { purgeExpiredTokensTask } from './auth.tasks.js';
import { purgeExpiredTokens } from './tokens.purge.js';

export const AUTH_HANDLERS = [
  handleTask(purgeExpiredTokensTask, async (deps) => {
    const counts = await purgeExpiredTokens(deps);
    deps.log.info(counts, 'purged expired tokens');
  }),
];
