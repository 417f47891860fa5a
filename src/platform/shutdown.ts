// How a `gable` process ends (decisions §20, docs/deployment.md). On SIGTERM or SIGINT it has
// SHUTDOWN_TIMEOUT_SECONDS to end its work — `serve` its in-flight requests, a worker its running jobs (the jobs
// still running then are released to another worker) — and then closes its pools. A second signal exits at once,
// and a close that hangs past the timeout and a margin for the pools is cut short: an orchestrator's own kill
// comes later (Kubernetes waits 30 s by default), so the process ends on its own terms.
import closeWithGrace from 'close-with-grace';
import type { FastifyBaseLogger } from 'fastify';

/** After the timeout, what closing the mail pool, the browser and the database may still take. */
const CLOSE_MARGIN_MS = 5_000;

/**
 * `close` gets the instant (Date.now()) by which its work should be over; it closes the pools after it.
 * `delaySeconds` (serve's SHUTDOWN_DELAY_SECONDS) comes before the timeout: the time still accepting, unready.
 */
export function onShutdown(
  log: FastifyBaseLogger,
  timeoutSeconds: number,
  close: (deadline: number) => Promise<void>,
  delaySeconds = 0,
): void {
  const timeoutMs = (delaySeconds + timeoutSeconds) * 1000;
  closeWithGrace(
    {
      delay: timeoutMs + CLOSE_MARGIN_MS,
      onSecondSignal: (signal) => log.warn({ signal }, 'a second signal: exiting at once'),
      onSecondError: (err) => log.error({ err }, 'an error while shutting down: exiting at once'),
      onTimeout: () => log.error({ timeoutSeconds }, 'shutdown outlived SHUTDOWN_TIMEOUT_SECONDS: exiting at once'),
    },
    async ({ signal, err }) => {
      if (err) log.error({ err }, 'shutting down after an error');
      else log.info({ signal, delaySeconds, timeoutSeconds }, 'shutting down');
      await close(Date.now() + timeoutMs);
    },
  );
}

/** Milliseconds left until `deadline` (0 once it has passed). */
export function msUntil(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}
