// The pushes of one turn read and recorded in one statement each (push.batching.ts): every caller still gets
// its own answer, a row is moved on once, and a row at another attempt is left alone.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { deliveryForAttempt, markSent } from './push.batching.js';
import { feedUser, sendNotification } from '../../../test/helpers/notifications.js';
import { addDevice, deliveriesOf, vapidKeys } from '../../../test/helpers/push.js';

const VAPID = vapidKeys();
const subscription = () =>
  JSON.stringify({
    endpoint: `https://push.example.com/${randomUUID()}`,
    keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
  });

describe('push batching', () => {
  const t = useTestApp({ env: { VAPID_PUBLIC_KEY: VAPID.publicKey, VAPID_PRIVATE_KEY: VAPID.privateKey } });

  it('reads the attempts of one turn together and records their sends together, each with its own answer', async () => {
    const user = await feedUser(t.deps);
    await addDevice(t.deps, user.id, 'webpush', subscription());
    const notifications: string[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sent = await sendNotification(t.deps, [user.id], { message: `n${i}` });
      notifications.push(sent!.id);
      ids.push((await deliveriesOf(t.deps, sent!.id))[0]!.id);
    }
    const rows = await Promise.all([...ids, randomUUID()].map((id) => deliveryForAttempt(t.deps.db, id)));
    expect(rows.map((row) => row?.id)).toEqual([...ids, undefined]);
    expect(rows.map((row) => row?.message)).toEqual(['n0', 'n1', 'n2', undefined]);
    expect(rows[2]!.unseen).toBe(3);

    const at = t.deps.clock.now();
    const push = (id: string, expected: number) =>
      markSent(t.deps.db, { id, expected, attempts: expected + 1, last_status: 201, at });
    // the same push twice (a repeated job), and one at an attempt its row is not at
    expect(await Promise.all([push(ids[0]!, 0), push(ids[1]!, 0), push(ids[1]!, 0), push(ids[2]!, 3)])).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const statuses = await Promise.all(notifications.map(async (id) => (await deliveriesOf(t.deps, id))[0]!.status));
    expect(statuses).toEqual(['sent', 'sent', 'pending']);
    const delivered = await t.deps.db
      .selectFrom('notification_recipients')
      .select(['notification', 'delivered_at'])
      .where('user', '=', user.id)
      .execute();
    expect(new Map(delivered.map((r) => [r.notification, r.delivered_at !== null]))).toEqual(
      new Map([
        [notifications[0], true],
        [notifications[1], true],
        [notifications[2], false],
      ]),
    );
    expect(await push(ids[0]!, 0)).toBe(false); // already sent
  });

  it('fails only the call whose input broke the combined statement: its neighbours are answered alone', async () => {
    const user = await feedUser(t.deps);
    await addDevice(t.deps, user.id, 'webpush', subscription());
    const sent = await sendNotification(t.deps, [user.id], { message: 'kept' });
    const good = (await deliveriesOf(t.deps, sent!.id))[0]!.id;
    // Read in the same turn: together they are one statement, which the malformed id makes fail.
    const [bad, read] = await Promise.allSettled([
      deliveryForAttempt(t.deps.db, '-'.repeat(36)),
      deliveryForAttempt(t.deps.db, good),
    ]);
    expect(bad.status).toBe('rejected');
    expect(read.status === 'fulfilled' ? read.value?.message : read.reason).toBe('kept');
  });
});
