// The delivery engine as a worker process runs it: the outbox's NOTIFY wakes the fan-out pump, the pump wakes
// the delivery workers, and nothing in the test fans out or runs a job by hand.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { recordEvent } from '../../events/outbox.js';
import { OUTBOX_CHANNEL } from './pump.js';
import { brandUser, Receiver } from '../../../test/helpers/webhooks.js';
import type { Deps } from '../../platform/deps.js';

/** Notifications on the outbox channel, counted (PGlite in-process, PostgreSQL on a client of its own). */
async function countNotifications(deps: Deps): Promise<{ count: () => number; stop: () => Promise<void> }> {
  let n = 0;
  if (deps.database.pglite) {
    const unlisten = await deps.database.pglite.listen(OUTBOX_CHANNEL, () => n++);
    return { count: () => n, stop: () => unlisten() };
  }
  const client = new pg.Client({ connectionString: deps.config.databaseUrl! });
  await client.connect();
  client.on('notification', () => n++);
  await client.query(`listen ${OUTBOX_CHANNEL}`);
  return { count: () => n, stop: () => client.end() };
}

describe('the engine in a worker process', () => {
  const t = useTestApp({ workers: true, env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } });
  const receiver = new Receiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it('an event’s commit notifies the outbox channel, once per transaction; a rolled back one does not', async () => {
    const brand = (await brandUser(t.deps)).brand;
    const listener = await countNotifications(t.deps);
    try {
      const event = {
        brand,
        topic: 'Contacts',
        event: 'create',
        subject: brand,
        payload: { contact: { id: brand } },
      } as const;
      await t.deps.db.transaction().execute(async (trx) => {
        await recordEvent(trx, event);
        await recordEvent(trx, event);
      });
      await expect.poll(listener.count, { timeout: 10_000, interval: 20 }).toBe(1);
      await expect(
        t.deps.db.transaction().execute(async (trx) => {
          await recordEvent(trx, event);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      // A later commit's notification proves the rolled back one would have arrived by now.
      await t.deps.db.transaction().execute(async (trx) => recordEvent(trx, event));
      await expect.poll(listener.count, { timeout: 10_000, interval: 20 }).toBe(2);
    } finally {
      await listener.stop();
    }
  });

  it('delivers a created contact with no fan-out or job run by the test', async () => {
    const admin = await brandUser(t.deps, { acl: ['Admin', 'CRM'] });
    const created = await t.app.inject({
      method: 'POST',
      url: `/brands/${admin.brand}/webhooks`,
      headers: admin.headers,
      payload: { topic: 'Contacts', url: receiver.url('/live') },
    });
    expect(created.statusCode, created.body).toBe(200);
    const contact = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...admin.headers, 'x-rechat-brand': admin.brand },
      payload: { first_name: 'Grace' },
    });
    expect(contact.statusCode).toBe(200);
    await expect
      .poll(() => receiver.received.filter((r) => r.url === '/live').length, { timeout: 20_000, interval: 50 })
      .toBe(1);
    const [got] = receiver.received.filter((r) => r.url === '/live');
    expect(JSON.parse(got!.body)).toMatchObject({
      topic: 'Contacts',
      event: 'create',
      payload: { contacts: [{ id: contact.json().data.id }] },
    });
    await expect
      .poll(
        async () =>
          await t.deps.db
            .selectFrom('webhook_deliveries')
            .select(['status', 'attempts'])
            .where('webhook', '=', created.json().data.id)
            .execute(),
        { timeout: 10_000, interval: 50 },
      )
      .toEqual([{ status: 'delivered', attempts: 1 }]);
  });
});
