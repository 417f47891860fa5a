// The fan-out pump (docs/webhooks.md): every worker process runs one for its whole life. It fans out as soon
// as events commit — the outbox's insert trigger NOTIFYs `gable_domain_events` — and sweeps the outbox every
// second anyway, so a lost notification (or a listener that could not connect) costs latency, never an event.
// Pumps of several processes are safe together: the position lock lets one fan out at a time.
import pg from 'pg';
import type { Deps } from '../../platform/deps.js';
import { chunkRowsOf, type Daemon } from '../../jobs/task.js';
import { fanOutStep } from './fanout.js';
import { deliverTask, fanOutTask } from './webhooks.tasks.js';

export const OUTBOX_CHANNEL = 'gable_domain_events';
/** Look at the outbox at least this often without a notification. */
const SWEEP_MS = 1000;
/** Committed events held back by an older running transaction: look again after 5 ms, doubling up to 200 ms. */
const HELD_BACK_MIN_MS = 5;
const HELD_BACK_MAX_MS = 200;

export const fanOutPump: Daemon = {
  name: 'webhooks.fan-out-pump',
  async run(deps, stopping) {
    const bell = new Bell();
    const unlisten = await listen(deps, () => bell.ring());
    try {
      let heldBackMs = 0;
      while (!stopping.aborted) {
        let step;
        try {
          step = await fanOutStep(deps, chunkRowsOf(fanOutTask, deps));
        } catch (error) {
          deps.log.error({ err: error }, 'webhook fan-out failed; trying again at the next sweep');
          await bell.wait(SWEEP_MS, stopping);
          continue;
        }
        // This process's delivery workers fetch now rather than at their next poll.
        if (step.deliveries > 0) deps.queue.wake(deliverTask);
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

/** LISTENs on the outbox channel: PGlite in-process, PostgreSQL on a connection of its own (not the pool's). */
async function listen(deps: Deps, onNotify: () => void): Promise<() => Promise<void>> {
  if (deps.database.embedded) return deps.database.listenEmbedded(OUTBOX_CHANNEL, onNotify);
  if (!deps.config.databaseUrl) return async () => undefined;
  const client = new pg.Client({ connectionString: deps.config.databaseUrl });
  // A broken listener only slows the pump down to its sweep; the process carries on.
  client.on('error', (error) => deps.log.warn({ err: error }, 'outbox listener lost; the pump sweeps every second'));
  client.on('notification', onNotify);
  try {
    await client.connect();
    await client.query(`listen ${OUTBOX_CHANNEL}`);
  } catch (error) {
    deps.log.warn({ err: error }, 'could not listen for outbox events; the pump sweeps every second');
  }
  return async () => {
    await client.end().catch(() => undefined);
  };
}
