// Workers wake on the notices of ready jobs instead of polling (their own poll is ten minutes): a job enqueued now,
// a delayed job and a retry each announce themselves when their transaction commits, and each runs.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { purgeExpiredTokensTask } from '../modules/auth/auth.tasks.js';
import { listen } from '../db/listener.js';
import { JOBS_CHANNEL } from './wake.js';

describe('job notices', () => {
  const t = useTestApp();

  it('are sent when a job is enqueued, when it starts later, and when it is set to retry — at commit', async () => {
    const notices: string[] = [];
    const unlisten = await listen({
      database: t.deps.database,
      databaseUrl: t.deps.config.databaseUrl,
      log: t.deps.log,
      channel: JOBS_CHANNEL,
      onPayload: (payload) => notices.push(payload),
    });
    try {
      const name = purgeExpiredTokensTask.name;
      let id: string | null = null;
      await t.deps.db.transaction().execute(async (trx) => {
        id = await t.deps.queue.enqueue(trx, purgeExpiredTokensTask, {});
        await t.deps.queue.enqueue(trx, purgeExpiredTokensTask, {}, { startIn: 60 });
        // NOTIFY is delivered when the transaction commits, never before.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(notices).toEqual([]);
      });
      await expect.poll(() => [...notices].sort(), { timeout: 5000 }).toEqual([name, `${name} later`]);

      notices.length = 0;
      await sql`update pgboss.job set state = 'retry', start_after = now() + interval '30 seconds'
                where id = ${id}::uuid`.execute(t.deps.db);
      await expect.poll(() => notices, { timeout: 5000 }).toEqual([`${name} later`]);

      // A state change that makes no job ready says nothing.
      notices.length = 0;
      await sql`update pgboss.job set state = 'cancelled' where id = ${id}::uuid`.execute(t.deps.db);
      await t.deps.queue.enqueue(t.deps.db, purgeExpiredTokensTask, {});
      await expect.poll(() => notices, { timeout: 5000 }).toEqual([name]);
    } finally {
      await unlisten();
    }
  });
});

describe('job workers woken by notices', () => {
  const t = useTestApp({ workers: true });

  const stateOf = async (id: string) =>
    (await sql<{ state: string }>`select state from pgboss.job where id = ${id}::uuid`.execute(t.deps.db)).rows[0]
      ?.state;

  it('run a job enqueued now, and a delayed job when it is due, with no poll to find them', async () => {
    const now = await t.deps.queue.enqueue(t.deps.db, purgeExpiredTokensTask, {});
    const later = await t.deps.queue.enqueue(t.deps.db, purgeExpiredTokensTask, {}, { startIn: 2 });
    await expect.poll(() => stateOf(now!), { timeout: 20_000, interval: 100 }).toBe('completed');
    expect(await stateOf(later!)).toBe('created');
    await expect.poll(() => stateOf(later!), { timeout: 20_000, interval: 100 }).toBe('completed');
  });
});
