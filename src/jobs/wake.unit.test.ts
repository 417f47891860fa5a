// The waker turns notices of ready jobs into wake-ups: at once for a job that can start, by a timer for a delayed
// one, and by its sweep for whatever a lost notice did not say.
import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobWaker, SAFETY_SWEEP_MS } from './wake.js';

const log = { warn: vi.fn() } as unknown as FastifyBaseLogger;

/** A queue whose jobs' starts per task the test sets, in ms from now (≤ 0: ready; null or absent: no job). */
function fakeQueue(dueInMs: Record<string, number | number[] | null>) {
  const asked: string[][] = [];
  const query = (config: pg.QueryConfig) => {
    const names = (config.values as [string[]])[0];
    asked.push(names);
    return Promise.resolve({
      rows: names.map((name) => {
        const starts = [dueInMs[name] ?? []].flat();
        const later = starts.filter((ms) => ms > 0);
        return { name, ready: starts.some((ms) => ms <= 0), next_in_ms: later.length ? Math.min(...later) : null };
      }),
    } as pg.QueryResult);
  };
  return { asked, query };
}

describe('JobWaker', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('wakes a task at once on the notice of a job that can start, and ignores tasks it does not run', () => {
    const woken: string[] = [];
    const queue = fakeQueue({});
    const waker = new JobWaker('pgboss', ['a', 'b'], queue.query, (name) => woken.push(name), log);
    waker.onNotice('b');
    waker.onNotice('not-ours');
    expect(woken).toEqual(['b']);
    expect(queue.asked).toEqual([]);
  });

  it('asks when a delayed job starts and wakes its task then, not before', async () => {
    const woken: string[] = [];
    const due: Record<string, number | number[] | null> = { a: 5000 };
    const queue = fakeQueue(due);
    const waker = new JobWaker('pgboss', ['a'], queue.query, (name) => woken.push(name), log);
    waker.onNotice('a later');
    await vi.advanceTimersByTimeAsync(4000);
    expect(queue.asked).toEqual([['a']]);
    expect(woken).toEqual([]);
    due.a = null; // the job is fetched once woken: nothing further is due
    await vi.advanceTimersByTimeAsync(1100);
    expect(woken).toEqual(['a']);
    // and asks again for the task's next delayed job
    expect(queue.asked).toEqual([['a'], ['a']]);
    waker.stop();
  });

  it('wakes a task for a ready job and still sets the timer of its delayed one', async () => {
    const woken: string[] = [];
    const due: Record<string, number | number[] | null> = { a: [-5, 2000] };
    const queue = fakeQueue(due);
    const waker = new JobWaker('pgboss', ['a'], queue.query, (name) => woken.push(name), log);
    waker.onNotice('a later');
    await vi.advanceTimersByTimeAsync(0);
    expect(woken).toEqual(['a']);
    due.a = null; // both are fetched once their time comes
    await vi.advanceTimersByTimeAsync(2100);
    expect(woken).toEqual(['a', 'a']);
    waker.stop();
  });

  it('keeps the earliest timer of a task when notices of later jobs follow', async () => {
    const woken: string[] = [];
    const due: Record<string, number | number[] | null> = { a: 1000 };
    const queue = fakeQueue(due);
    const waker = new JobWaker('pgboss', ['a'], queue.query, (name) => woken.push(name), log);
    waker.onNotice('a later');
    await vi.advanceTimersByTimeAsync(10);
    due.a = 50_000;
    waker.onNotice('a later');
    await vi.advanceTimersByTimeAsync(1000);
    expect(woken).toEqual(['a']);
    waker.stop();
  });

  it('sweeps every task at start and once a minute, waking those with jobs ready', async () => {
    const woken: string[] = [];
    const due: Record<string, number | number[] | null> = { a: -10, b: null };
    const queue = fakeQueue(due);
    const waker = new JobWaker('pgboss', ['a', 'b'], queue.query, (name) => woken.push(name), log);
    waker.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.asked).toEqual([['a', 'b']]);
    expect(woken).toEqual(['a']);
    due.a = null;
    due.b = 0;
    await vi.advanceTimersByTimeAsync(SAFETY_SWEEP_MS);
    expect(queue.asked).toHaveLength(2);
    expect(woken).toEqual(['a', 'b']);
    waker.stop();
    await vi.advanceTimersByTimeAsync(SAFETY_SWEEP_MS);
    expect(queue.asked).toHaveLength(2);
  });

  it('asks once for the notices that arrive while it is asking', async () => {
    const queue = fakeQueue({});
    const waker = new JobWaker('pgboss', ['a', 'b', 'c'], queue.query, () => undefined, log);
    waker.onNotice('a later');
    waker.onNotice('b later');
    waker.onNotice('c later');
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.asked).toEqual([['a'], ['b', 'c']]);
  });
});
