// The HTTP process: build the app, listen, shut down gracefully. Nothing else, beside the operator channel of an
// embedded server (platform/operator-channel.ts: how `gable notify` and the like reach a server holding DATA_DIR).
import type { FastifyInstance } from 'fastify';
import type { Deps } from './platform/deps.js';
import { closeDeps } from './deps.js';
import { buildApp } from './app.js';
import { operatorActions } from './features.js';
import { startOperatorChannel, type OperatorChannel } from './platform/operator-channel.js';
import { msUntil, onShutdown } from './platform/shutdown.js';
import { startSummary } from './platform/start-summary.js';

/**
 * `prepare` (migrations, job workers, the embedded first start) runs once the shutdown is in place, so that a
 * signal during it is a graceful one too: in-process jobs start there.
 */
export async function serve(deps: Deps, prepare: () => Promise<void>): Promise<void> {
  let app: FastifyInstance | null = null;
  let channel: OperatorChannel | null = null;
  const { shutdownTimeoutSeconds, shutdownDelaySeconds } = deps.config;
  const close = async (deadline: number) => {
    deps.lifecycle.draining = true; // /ready says 503; every answer closes its connection
    await channel?.close(); // no operator action starts once shutting down
    // Requests and in-process jobs drain side by side; the queue keeps taking jobs from the requests until both
    // are done, and stops in closeDeps, before the database closes (which releases the embedded lock).
    await Promise.all([
      app && closeHttpAfter(app, shutdownDelaySeconds * 1000, deadline),
      deps.queue.stopWorking(msUntil(deadline)),
    ]);
    await closeDeps(deps);
  };
  onShutdown(deps.log, shutdownTimeoutSeconds, close, shutdownDelaySeconds);
  await prepare();
  app = await buildApp(deps);
  await app.listen({ port: deps.config.port, host: deps.config.host });
  channel = await startOperatorChannel(deps, operatorActions);
  for (const line of startSummary(deps.config)) app.log.info(line);
}

/**
 * After `delayMs` still accepting (SHUTDOWN_DELAY_SECONDS: a balancer that polls `/ready` stops sending, and kept
 * connections are closed by their next answer instead of under a request that is on its way), stops accepting
 * connections and finishes the requests in flight; those still running at `deadline` are cut (their connections
 * closed). Requests that arrive meanwhile on open connections are answered, with `Connection: close` (app.ts).
 */
async function closeHttpAfter(app: FastifyInstance, delayMs: number, deadline: number): Promise<void> {
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  const closed = app.close();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    closed.then(() => false),
    new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), msUntil(deadline)))),
  ]);
  clearTimeout(timer);
  if (!timedOut) return;
  app.log.warn('requests still running at SHUTDOWN_TIMEOUT_SECONDS: their connections are closed');
  app.server.closeAllConnections();
  await closed;
}
