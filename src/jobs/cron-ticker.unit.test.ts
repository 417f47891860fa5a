// The cron ticker ticks half a minute into each minute and sends, per tick, the tasks due in that minute.
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CronTicker, TICK_OFFSET_MS } from './cron-ticker.js';

const TASKS = [
  { name: 'every-minute', cron: '* * * * *' },
  { name: 'hourly', cron: '0 * * * *' },
  { name: 'nightly', cron: '17 3 * * *' },
];

describe('CronTicker', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function ticker(send: (names: string[]) => Promise<void>) {
    const log = { error: vi.fn() };
    return { ticker: new CronTicker(TASKS, send, log as unknown as FastifyBaseLogger), log };
  }

  it('sends each minute the tasks due in it, once, half a minute into the minute', async () => {
    vi.setSystemTime(new Date('2026-11-30T09:58:45Z'));
    const sent: [string, string[]][] = [];
    const { ticker: clock } = ticker((names) => {
      sent.push([new Date().toISOString(), names]);
      return Promise.resolve();
    });
    clock.start();
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(TICK_OFFSET_MS).toBe(30_000);
    expect(sent).toEqual([
      ['2026-11-30T09:59:30.000Z', ['every-minute']],
      ['2026-11-30T10:00:30.000Z', ['every-minute', 'hourly']],
    ]);
    clock.stop();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(sent).toHaveLength(2);
  });

  it('ticks the minutes it starts in when started before its half, and a failed send does not stop it', async () => {
    vi.setSystemTime(new Date('2026-11-30T03:17:00Z'));
    let calls = 0;
    const { ticker: clock, log } = ticker((names) => {
      calls++;
      return calls === 1 ? Promise.reject(new Error(`database down: ${names.join()}`)) : Promise.resolve();
    });
    clock.start();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls).toBe(1);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ tasks: ['every-minute', 'nightly'] }),
      'cron tick failed',
    );
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(2);
    clock.stop();
  });

  it('names the tasks due in a minute, and sets no timer without cron tasks', () => {
    const { ticker: clock } = ticker(() => Promise.resolve());
    expect(clock.dueAt(new Date('2026-11-30T03:17:45Z'))).toEqual(['every-minute', 'nightly']);
    expect(clock.dueAt(new Date('2026-11-30T04:17:45Z'))).toEqual(['every-minute']);
    const idle = new CronTicker([], () => Promise.reject(new Error('never')), {} as FastifyBaseLogger);
    idle.start();
    expect(vi.getTimerCount()).toBe(0);
  });
});
