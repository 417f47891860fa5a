// A task's job slots: a slow job holds only its own slot, an idle task fetches nothing until woken, each job is
// completed or failed alone, and stop drains the running jobs and releases what outlives the drain.
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { TaskSlots, type SlotJob } from './slots.js';

const log = { error: vi.fn(), warn: vi.fn() } as unknown as FastifyBaseLogger;

/** A job whose run the test ends by hand. */
interface HeldJob {
  end(): void;
  throw(error: Error): void;
}

/** A queue of ready job ids; `hold` makes a job's run wait for the test. */
function fakeQueue(options: { slots: number; fetchMax?: number; expireInSeconds?: number }) {
  const ready: string[] = [];
  const fetches: number[] = [];
  const started: string[] = [];
  const completed: string[][] = [];
  const failed: { ids: string[]; message: string }[] = [];
  const released: string[][] = [];
  const held = new Map<string, HeldJob>();
  const holding = new Set<string>();
  const slots = new TaskSlots({
    name: 'test.task',
    slots: options.slots,
    fetchMax: options.fetchMax ?? 16,
    idlePollMs: 600_000,
    fetch: (batchSize) => {
      fetches.push(batchSize);
      const jobs: SlotJob[] = ready
        .splice(0, batchSize)
        .map((id) => ({ id, data: {}, expireInSeconds: options.expireInSeconds ?? 60 }));
      return Promise.resolve(jobs);
    },
    run: (job) => {
      started.push(job.id);
      if (!holding.has(job.id)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => held.set(job.id, { end: resolve, throw: reject }));
    },
    complete: (ids) => {
      completed.push(ids);
      return Promise.resolve();
    },
    fail: (ids, message) => {
      failed.push({ ids, message });
      return Promise.resolve();
    },
    release: (ids) => {
      released.push(ids);
      return Promise.resolve();
    },
    log,
  });
  return { ready, fetches, started, completed, failed, released, held, holding, slots };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('TaskSlots', () => {
  it('keeps running other jobs while one hangs: only the hung job’s slot is taken', async () => {
    const q = fakeQueue({ slots: 3 });
    q.holding.add('hung');
    q.ready.push('hung');
    q.slots.start();
    await settle();
    expect(q.started).toEqual(['hung']);
    for (const id of ['a', 'b', 'c', 'd']) {
      q.ready.push(id);
      q.slots.wake();
      await settle();
    }
    expect(q.started).toEqual(['hung', 'a', 'b', 'c', 'd']);
    expect(q.completed.flat()).toEqual(['a', 'b', 'c', 'd']);
    expect(q.slots.inFlight).toBe(1);
    q.held.get('hung')!.end();
    await settle();
    expect(q.completed.flat()).toContain('hung');
    await q.slots.stop(1000);
  });

  it('fetches no more than its free slots, and again as a slot frees while jobs may be ready', async () => {
    const q = fakeQueue({ slots: 2 });
    q.holding.add('x').add('y');
    q.ready.push('x', 'y', 'z');
    q.slots.start();
    await settle();
    expect(q.started).toEqual(['x', 'y']);
    expect(q.fetches).toEqual([2]);
    q.held.get('x')!.end();
    await settle();
    // The full fetch said "there may be more": the freed slot fetched z without a wake-up.
    // That fetch of one came back full too, so the slot z freed asked once more, found nothing, and stopped.
    expect(q.started).toEqual(['x', 'y', 'z']);
    expect(q.fetches).toEqual([2, 1, 1]);
    q.held.get('y')!.end();
    await q.slots.stop(1000);
  });

  it('asks nothing while idle: after a short fetch it waits for a wake-up', async () => {
    const q = fakeQueue({ slots: 4 });
    q.slots.start();
    await settle();
    expect(q.fetches).toEqual([4]);
    await settle();
    await settle();
    expect(q.fetches).toEqual([4]);
    q.ready.push('a');
    q.slots.wake();
    await settle();
    expect(q.started).toEqual(['a']);
    expect(q.fetches).toEqual([4, 4]);
    await q.slots.stop(1000);
  });

  it('fails a job that throws, alone, and one that outlives its expiry', async () => {
    const q = fakeQueue({ slots: 4, expireInSeconds: 1 });
    q.holding.add('bad').add('slow');
    q.ready.push('bad', 'good', 'slow');
    q.slots.start();
    await settle();
    q.held.get('bad')!.throw(new Error('boom'));
    await settle();
    expect(q.failed).toEqual([{ ids: ['bad'], message: 'boom' }]);
    expect(q.completed.flat()).toEqual(['good']);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(q.failed[1]).toEqual({ ids: ['slow'], message: 'handler execution exceeded 1000ms' });
    expect(q.slots.inFlight).toBe(0);
    await q.slots.stop(1000);
  });

  it('on stop fetches no more, waits for running jobs, and releases those that outlive the drain', async () => {
    const q = fakeQueue({ slots: 4 });
    q.holding.add('quick').add('stuck');
    q.ready.push('quick', 'stuck');
    q.slots.start();
    await settle();
    const stopped = q.slots.stop(200);
    q.ready.push('late');
    q.slots.wake();
    q.held.get('quick')!.end();
    await stopped;
    expect(q.completed.flat()).toEqual(['quick']);
    expect(q.released).toEqual([['stuck']]);
    expect(q.failed).toEqual([]);
    expect(q.started).not.toContain('late');
    // The released job's run ends later in this process: another worker owns it now, so nothing is recorded.
    q.held.get('stuck')!.end();
    await settle();
    expect(q.completed.flat()).toEqual(['quick']);
    expect(q.failed).toEqual([]);
  });
});
