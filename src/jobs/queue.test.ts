// Jobs commit or roll back with the write that caused them, and only registered tasks can be enqueued.
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { purgeExpiredTokensTask } from '../modules/auth/auth.tasks.js';
import { defineTask } from './task.js';

describe('job queue', () => {
  const t = useTestApp();

  const jobsNamed = async (name: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = ${name}`.execute(t.deps.db)).rows[0]!.n;

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
    const unknown = defineTask({ name: 'nobody.handles-this', payload: Type.Object({}), handle: async () => undefined });
    await expect(t.deps.queue.enqueue(t.deps.db, unknown, {})).rejects.toThrow(/No handler is registered/);
    await expect(t.deps.queue.enqueue(t.deps.db, purgeExpiredTokensTask, { extra: 1 } as never)).resolves.toBeDefined();
    const strict = { ...purgeExpiredTokensTask, payload: Type.Object({ id: Type.String() }) };
    await expect(t.deps.queue.enqueue(t.deps.db, strict as never, { id: 3 } as never)).rejects.toThrow(/Invalid payload/);
  });
});
