// Jobs commit or roll back with the write that caused them, and only registered tasks can be enqueued.
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { purgeExpiredTokensTask } from '../modules/auth/auth.tasks.js';
import { fanOutTask } from '../modules/webhooks/webhooks.tasks.js';
import { pushTask } from '../modules/notifications/push.tasks.js';
import { defineTask } from './task.js';
import { JobQueue } from './queue.js';
import { TASKS } from '../registry.js';

describe('job queue', () => {
  const t = useTestApp();

  const jobsNamed = async (name: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = ${name}`.execute(t.deps.db))
      .rows[0]!.n;

  it('enqueues inside a transaction: a rollback drops the job, a commit keeps it', async () => {
    const before = await jobsNamed(purgeExpiredTokensTask.name);
    await expect(
      t.deps.db.transaction().execute(async (trx) => {
        await t.deps.queue.enqueue(trx, purgeExpiredTokensTask, {});
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await jobsNamed(purgeExpiredTokensTask.name)).toBe(before);

    await t.deps.db.transaction().execute(async (trx) => {
      await t.deps.queue.enqueue(trx, purgeExpiredTokensTask, {});
    });
    expect(await jobsNamed(purgeExpiredTokensTask.name)).toBe(before + 1);
  });

  it('refuses tasks that are not registered and payloads that do not match', async () => {
    const unknown = defineTask({
      name: 'nobody.handles-this',
      payload: Type.Object({}),
    });
    await expect(t.deps.queue.enqueue(t.deps.db, unknown, {})).rejects.toThrow(/No handler is registered/);
    await expect(t.deps.queue.enqueue(t.deps.db, purgeExpiredTokensTask, { extra: 1 } as never)).resolves.toBeDefined();
    const strict = { ...purgeExpiredTokensTask, payload: Type.Object({ id: Type.String() }) };
    await expect(t.deps.queue.enqueue(t.deps.db, strict as never, { id: 3 } as never)).rejects.toThrow(
      /Invalid payload/,
    );
  });
});

describe('job queue in a worker process', () => {
  const t = useTestApp({ workers: true });

  const stateOf = async (id: string) =>
    (await sql<{ state: string }>`select state from pgboss.job where id = ${id}::uuid`.execute(t.deps.db)).rows[0]
      ?.state;

  it('runs a batched task side by side and fails only the job of the batch that threw', async () => {
    expect(pushTask.batchSize).toBeGreaterThan(1);
    // Both fit the payload schema; the first is no uuid, so its handler's query throws. The second names no
    // delivery, so its handler returns (nothing to send).
    const [bad, good] = await t.deps.db
      .transaction()
      .execute(async (trx) => [
        await t.deps.queue.enqueue(trx, pushTask, { delivery: '-'.repeat(36), attempt: 1 }),
        await t.deps.queue.enqueue(trx, pushTask, { delivery: '00000000-0000-4000-8000-000000000000', attempt: 1 }),
      ]);
    await expect.poll(() => stateOf(good!), { timeout: 20_000, interval: 100 }).toBe('completed');
    await expect.poll(() => stateOf(bad!), { timeout: 20_000, interval: 100 }).toBe('retry');
  });

  it('runs the fan-out sweep job, and stops with its daemons: nothing is left active', async () => {
    const id = await t.deps.queue.enqueue(t.deps.db, fanOutTask, {});
    expect(id).toBeTruthy();
    await expect.poll(() => stateOf(id!), { timeout: 20_000, interval: 100 }).toBe('completed');
    await t.deps.queue.stop();
    const active = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where state = 'active'`.execute(
      t.deps.db,
    );
    expect(active.rows[0]!.n).toBe(0);
  });
});

describe('job queues created by processes starting together', () => {
  const t = useTestApp();

  /**
   * Two queues on one database stand for two processes (`serve` and `worker` of one compose up): on PostgreSQL
   * their statements run on different connections, at once.
   */
  const twoProcesses = () =>
    [1, 2].map(
      () =>
        new JobQueue((query) => t.deps.database.query(query), t.deps.log, {
          workers: false,
          listen: () => Promise.reject(new Error('no listening without workers')),
        }),
    );

  it('start side by side on a database without the queues: none fails, every queue exists once', async () => {
    const tasks = TASKS.map((entry) => entry.task);
    await sql`select pgboss.delete_queue(name) from pgboss.queue`.execute(t.deps.db);
    const queues = twoProcesses();
    try {
      await Promise.all(queues.map((queue) => queue.start(tasks, () => Promise.resolve())));
    } finally {
      await Promise.all(queues.map((queue) => queue.stop()));
    }
    const { rows } = await sql<{ name: string }>`select name from pgboss.queue order by name`.execute(t.deps.db);
    expect(rows.map((row) => row.name)).toEqual(tasks.map((task) => task.name).sort());
  });

  it('keep one cron job per task and minute however many of them tick it', async () => {
    const tasks = TASKS.map((entry) => entry.task);
    const cron = tasks.filter((task) => task.cron).map((task) => task.name);
    expect(cron.length).toBeGreaterThan(1);
    const queues = twoProcesses();
    const since = (await sql<{ now: Date }>`select now()`.execute(t.deps.db)).rows[0]!.now;
    try {
      await Promise.all(queues.map((queue) => queue.start(tasks, () => Promise.resolve())));
      // Two ticks from each process, at once: the four may straddle a minute's end, so each minute is counted.
      await Promise.all([...queues, ...queues].map((queue) => queue.sendCronJobs(cron)));
    } finally {
      await Promise.all(queues.map((queue) => queue.stop()));
    }
    const { rows } = await sql<{ name: string; minute: Date; n: number }>`
      select name, singleton_on as minute, count(*)::int as n from pgboss.job
      where name = any(${cron}::text[]) and created_on >= ${since} group by name, singleton_on`.execute(t.deps.db);
    const minutes = new Set(rows.map((row) => String(row.minute)));
    expect(minutes.size).toBeGreaterThanOrEqual(1);
    expect(minutes.size).toBeLessThanOrEqual(2);
    expect(rows).toHaveLength(cron.length * minutes.size);
    for (const row of rows) expect(row, row.name).toMatchObject({ n: 1 });
  });
});
