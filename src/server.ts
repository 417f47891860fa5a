// The HTTP process: build the app, listen, shut down gracefully. Nothing else, beside the operator channel of an
// embedded server (platform/operator-channel.ts: how `gable notify` and the like reach a server holding DATA_DIR).
import closeWithGrace from 'close-with-grace';
import type { Deps } from './platform/deps.js';
import { closeDeps } from './deps.js';
import { buildApp } from './app.js';
import { operatorActions } from './features.js';
import { startOperatorChannel, type OperatorChannel } from './platform/operator-channel.js';
import { startSummary } from './platform/start-summary.js';

export async function serve(deps: Deps): Promise<void> {
  const app = await buildApp(deps);
  let channel: OperatorChannel | null = null;
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await channel?.close(); // no operator action starts once shutting down
    await app.close(); // stop accepting, finish in-flight requests
    await closeDeps(deps); // then the job workers and the database (releases the embedded lock)
  });
  await app.listen({ port: deps.config.port, host: deps.config.host });
  channel = await startOperatorChannel(deps, operatorActions);
  for (const line of startSummary(deps.config)) app.log.info(line);
}
