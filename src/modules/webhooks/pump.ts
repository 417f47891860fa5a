// The fan-out pump (docs/webhooks.md): every worker process runs one for its whole life. It fans out as soon
// as events commit — the outbox's insert trigger NOTIFYs `gable_domain_events` — and sweeps the outbox every
// 30 s anyway, so a lost notification costs latency, never an event; a listener that lost its connection sweeps
// as soon as it listens again. (An idle server costs next to nothing: issue 36.)
// Pumps of several processes are safe together: the position lock lets one fan out at a time.
import { chunkRowsOf } from '../../jobs/task.js';
import { type Daemon } from '../../jobs/handler.js';
import { fanOutStep } from './fanout.js';
import { listen } from '../../db/listener.js';
import { fanOutTask } from './webhooks.tasks.js';

export const OUTBOX_CHANNEL = 'gable_domain_events';
/** Look at the outbox at least this often without a notification. */
const SWEEP_MS = 30_000;
/** After a failed step (the database unreachable, say): try again this soon. */
const RETRY_MS = 1000;
/** Committed events held back by an older running transaction: look again after 5 ms, doubling up to 200 ms. */
const HELD_BACK_MIN_MS = 5;
const HELD_BACK_MAX_MS = 200;

export const fanOutPump: Daemon = {
  name: 'webhooks.fan-out-pump',
  async run(deps, stopping) {
    const bell = new Bell();
    const unlisten = await listen({
      database: deps.database,
      databaseUrl: deps.config.databaseUrl,
      log: deps.log,
      channel: OUTBOX_CHANNEL,
      onPayload: () => bell.ring(),
      onReconnected: () => bell.ring(),
    });
    try {
      let heldBackMs = 0;
      while (!stopping.aborted) {
        let step;
        try {
          step = await fanOutStep(deps, chunkRowsOf(fanOutTask, deps));
        } catch (error) {
          deps.log.error({ err: error }, 'webhook fan-out failed; trying again in a second');
          await bell.wait(RETRY_MS, stopping);
          continue;
        }
        if (step.events > 0) {
          heldBackMs = 0;
          continue;
        }
        heldBackMs = step.heldBack ? Math.min(Math.max(heldBackMs * 2, HELD_BACK_MIN_MS), HELD_BACK_MAX_MS) : 0;
        await bell.wait(step.heldBack ? heldBackMs : SWEEP_MS, stopping);
      }
    } finally {
      await unlisten();
    }
  },
};

/** A wake-up that is not lost when it rings while nobody waits. */
class Bell {
  private rung = false;
  private wakeUp: (() => void) | null = null;

  ring(): void {
    this.rung = true;
    this.wakeUp?.();
  }

  /** Resolves at the first ring since the last wait, after `ms`, or when `stopping` aborts. */
  async wait(ms: number, stopping: AbortSignal): Promise<void> {
    if (!this.rung && !stopping.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          stopping.removeEventListener('abort', done);
          this.wakeUp = null;
          resolve();
        };
        const timer = setTimeout(done, ms);
        stopping.addEventListener('abort', done);
        this.wakeUp = done;
      });
    }
    this.rung = false;
  }
}
