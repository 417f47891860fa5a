// The minute tick of the cron tasks (cron.ts), run by every worker process. Each tick sends the jobs of the tasks due
// in its minute in one statement, as jobs with a one-minute singleton slot (queue.ts): however many processes
// tick, the job table keeps one job per task and minute. The slot is the database's minute, so the tick runs half
// a minute into its minute: a process whose clock is up to 30 s off the database's still lands in the right slot.
import type { FastifyBaseLogger } from 'fastify';
import { cronDue, parseCron, type CronSchedule } from './cron.js';

const MINUTE_MS = 60_000;
/** How far into its minute a tick runs (see above). */
export const TICK_OFFSET_MS = 30_000;

export class CronTicker {
  private readonly schedules: readonly { name: string; schedule: CronSchedule }[];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    tasks: readonly { name: string; cron: string }[],
    /** Sends one job of each named task, once per minute across processes. */
    private readonly send: (names: string[]) => Promise<void>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.schedules = tasks.map((task) => ({ name: task.name, schedule: parseCron(task.cron) }));
  }

  start(): void {
    if (this.schedules.length > 0) this.arm(Date.now());
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The tasks whose schedule names the minute of `at`. */
  dueAt(at: Date): string[] {
    return this.schedules.filter((entry) => cronDue(entry.schedule, at)).map((entry) => entry.name);
  }

  /** Sets the timer of the first tick after `after` (ticks run at TICK_OFFSET_MS into their minute). */
  private arm(after: number): void {
    const tick = Math.floor((after - TICK_OFFSET_MS) / MINUTE_MS) * MINUTE_MS + MINUTE_MS + TICK_OFFSET_MS;
    this.timer = setTimeout(() => this.tick(tick), tick - Date.now());
    this.timer.unref();
  }

  private tick(at: number): void {
    // The next tick is planned from the later of now and this one, so a timer that fires a little early (or a
    // clock stepped back) cannot tick the same minute twice, and one that fires late skips to the next minute.
    this.arm(Math.max(Date.now(), at));
    const due = this.dueAt(new Date(at));
    if (due.length === 0) return;
    this.send(due).catch((error: unknown) => this.log.error({ err: error, tasks: due }, 'cron tick failed'));
  }
}
