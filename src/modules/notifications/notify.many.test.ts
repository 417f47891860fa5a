// notifyMany() writes what notify() called once per input writes: the same notifications, the same recipients
// in the same order in each feed, the same push ledger rows and jobs, and null where nobody is left to notify.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import type { Deps } from '../../platform/deps.js';
import { notify, notifyMany, type NotifyInput } from './notify.js';
import { STREAM_CHANNEL } from './notifications.repository.js';
import { feedUser } from '../../../test/helpers/notifications.js';
import { addDevice, pushJobs, vapidKeys } from '../../../test/helpers/push.js';

const VAPID = vapidKeys();
const SUBJECT = randomUUID();

/** What a run left, with ids replaced by the input's position and users by their name. */
async function written(deps: Deps, ids: (string | null)[], names: Map<string, string>) {
  const position = new Map(ids.flatMap((id, i) => (id ? [[id, i] as const] : [])));
  const real = ids.filter((id) => id !== null);
  const notifications = await deps.db.selectFrom('notifications').selectAll().where('id', 'in', real).execute();
  const recipients = await deps.db
    .selectFrom('notification_recipients')
    .select(['notification', 'user', 'seq'])
    .where('notification', 'in', real)
    .orderBy('seq')
    .execute();
  const deliveries = await deps.db
    .selectFrom('push_deliveries')
    .select(['notification', 'user', 'provider', 'app', 'status'])
    .where('notification', 'in', real)
    .execute();
  return {
    found: ids.map((id) => id !== null),
    // record_head (the feed's stored part) holds the ids and times: feed-json.test.ts checks it.
    notifications: notifications
      .map(({ id, created_at: _c, updated_at: _u, record_head: _j, exclude, ...rest }) => ({
        ...rest,
        exclude: exclude?.map((user) => names.get(user) ?? user) ?? null,
        at: position.get(id),
      }))
      .sort((a, b) => a.at! - b.at!),
    // Each user's feed in its order (the order of one notification's recipients among themselves is not promised).
    feed: [...names.values()].map((name) =>
      recipients.filter((r) => names.get(r.user) === name).map((r) => position.get(r.notification)),
    ),
    deliveries: deliveries
      .map((d) => `${position.get(d.notification)} ${names.get(d.user)} ${d.provider} ${d.app} ${d.status}`)
      .sort(),
  };
}

/** The live stream's messages (the channel the stream listens to) while `run` runs, parsed. */
async function streamMessages<T>(
  deps: Deps,
  run: () => Promise<T>,
  expected: (result: T) => number,
): Promise<{ result: T; messages: { u: string; n?: string; s?: number }[] }> {
  const payloads: string[] = [];
  let stop: () => Promise<unknown>;
  if (deps.database.embedded)
    stop = await deps.database.listenEmbedded(STREAM_CHANNEL, (payload) => payloads.push(payload));
  else {
    const client = new pg.Client({ connectionString: deps.config.databaseUrl ?? undefined });
    client.on('notification', (message) => payloads.push(message.payload ?? ''));
    await client.connect();
    await client.query(`listen ${STREAM_CHANNEL}`);
    stop = () => client.end();
  }
  const result = await run();
  // Delivered after the commit: wait until they are in (at most 2 s), then a little for any extra one.
  for (let i = 0; i < 100 && payloads.length < expected(result); i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 50));
  await stop();
  return { result, messages: payloads.map((payload) => JSON.parse(payload) as { u: string; n?: string; s?: number }) };
}

describe('notifyMany', () => {
  const t = useTestApp({
    env: {
      VAPID_PUBLIC_KEY: VAPID.publicKey,
      VAPID_PRIVATE_KEY: VAPID.privateKey,
      VAPID_SUBJECT: 'mailto:ops@gable.test',
    },
  });

  it('writes the rows, feed order, pushes and nulls of one notify() per input', async () => {
    const run = async (many: boolean) => {
      const alice = await feedUser(t.deps);
      const bob = await feedUser(t.deps);
      const gone = await feedUser(t.deps);
      await t.deps.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
      await addDevice(t.deps, alice.id, 'webpush', `https://push.example.com/${alice.id}/a`);
      await addDevice(t.deps, alice.id, 'fcm', `fcm-${alice.id}`, 'other');
      await addDevice(t.deps, bob.id, 'webpush', `https://push.example.com/${bob.id}/b`);
      const names = new Map([
        [alice.id, 'alice'],
        [bob.id, 'bob'],
        [gone.id, 'gone'],
      ]);
      const inputs: NotifyInput[] = [
        {
          recipients: [alice.id, bob.id, alice.id.toUpperCase()],
          action: 'BecameAvailable',
          message: 'one',
          subject: SUBJECT,
          subject_class: 'Listing',
          data: { n: 1 },
        },
        { recipients: [gone.id], action: 'PriceDropped', message: 'nobody left' },
        {
          recipients: [bob.id, alice.id],
          action: 'StatusChanged',
          message: 'two',
          exclude: [bob.id],
          title: 'T',
          app: 'other',
        },
        { recipients: [alice.id], action: 'Tested', message: 'no push', transports: [] },
        { recipients: [bob.id], action: 'Tested', message: 'excluded', exclude: [bob.id.toUpperCase()] },
        { recipients: [bob.id, alice.id], action: 'Tested', message: 'three', data: null },
      ];
      const jobsBefore = (await pushJobs(t.deps)).length;
      const { result: results, messages } = await streamMessages(
        t.deps,
        () =>
          t.deps.db.transaction().execute(async (trx) => {
            if (many) return notifyMany(trx, t.deps, inputs);
            const each = [];
            for (const input of inputs) each.push(await notify(trx, t.deps, input));
            return each;
          }),
        (written) => written.reduce((sum, r) => sum + (r?.recipients.length ?? 0), 0),
      );
      const ids = results.map((r) => r?.id ?? null);
      const recipients = results.map((r) => r?.recipients.map((x) => names.get(x.user)).sort() ?? null);
      // Each user's stream messages in the order sent: which notification, and whether it names its feed position.
      const seqOf = new Map(
        results.flatMap((r) => r?.recipients.map((x) => [`${r.id} ${x.user}`, x.seq] as const) ?? []),
      );
      const stream = [...names].map(
        ([user, name]) =>
          `${name}: ${messages
            .filter((m) => m.u === user)
            .map((m) => `${ids.indexOf(m.n!)}${m.s === seqOf.get(`${m.n} ${m.u}`) ? '' : ' (wrong seq)'}`)
            .join(', ')}`,
      );
      return {
        ...(await written(t.deps, ids, names)),
        recipients,
        stream,
        jobs: (await pushJobs(t.deps)).length - jobsBefore,
      };
    };
    const each = await run(false);
    const many = await run(true);
    expect(each.found).toEqual([true, false, true, true, false, true]);
    expect(each.feed).toEqual([[0, 2, 3, 5], [0, 5], []]);
    expect(each.deliveries.length).toBeGreaterThan(2);
    expect(each.stream).toEqual(['alice: 0, 2, 3, 5', 'bob: 0, 5', 'gone: ']);
    expect(many).toEqual(each);
  });

  it('answers nulls and writes nothing when no input has a recipient', async () => {
    const gone = await feedUser(t.deps);
    await t.deps.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    const before = await t.deps.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const results = await t.deps.db.transaction().execute((trx) =>
      notifyMany(trx, t.deps, [
        { recipients: [gone.id], action: 'Tested', message: 'x' },
        { recipients: [], action: 'Tested', message: 'y' },
      ]),
    );
    expect(results).toEqual([null, null]);
    const after = await t.deps.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});
