// Web Push delivery against a loopback push service that checks the VAPID JWT and decrypts the payload with the
// subscription's keys: success (payload, badge, delivered_at), idempotency of a repeated job, retries on 5xx and
// on 429 honouring Retry-After, a dead subscription deleted at once, silent listing alerts at night, a provider
// without configuration recorded as skipped, and the VAPID public key route.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { startFakeWebPush, type FakeWebPush } from '../../../test/fakes/webpush.js';
import { feedUser, sendNotification } from '../../../test/helpers/notifications.js';
import { addDevice, deliveriesOf, pushCount, pushJobs, vapidKeys } from '../../../test/helpers/push.js';
import { MAX_ATTEMPTS } from './push.service.js';
import { VAPID_JWT_SECONDS, WebPushSender } from './push.webpush.js';
import { handlerOf } from '../../registry.js';

const VAPID = vapidKeys();
const [L1, L2, D1, ABC] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
/** The next `hour`:00 UTC after the real now, so jobs pg-boss stamps with the database's now are due by then. */
function nextUtcHour(hour: number): Date {
  const at = new Date();
  at.setUTCHours(hour, 0, 0, 0);
  if (at.getTime() <= Date.now() + 3600_000) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}

describe('Web Push delivery', () => {
  const t = useTestApp({
    env: {
      VAPID_PUBLIC_KEY: VAPID.publicKey,
      VAPID_PRIVATE_KEY: VAPID.privateKey,
      VAPID_SUBJECT: 'mailto:ops@gable.test',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    },
  });
  let fake: FakeWebPush;
  beforeAll(async () => {
    fake = await startFakeWebPush(VAPID.publicKey);
  });
  afterAll(async () => fake.close());
  // The test clock runs an hour ahead of the real one: a first job (stamped with the database's real now) is
  // due at once, and a retry scheduled by the test clock is not due before the test advances it.
  beforeEach(() => t.clock.set(new Date(Date.now() + 3600_000)));
  const run = () =>
    runQueuedJobs(t.deps, ['notifications.push'], {
      dueBy: new Date(Math.max(t.clock.now().getTime(), Date.now()) + 1000),
    });

  it('sends one encrypted, VAPID-signed push per device with the unseen count as badge, once', async () => {
    const user = await feedUser(t.deps);
    const [phone, laptop] = [fake.subscribe(), fake.subscribe()];
    await addDevice(t.deps, user.id, 'webpush', phone.json);
    await addDevice(t.deps, user.id, 'webpush', laptop.json, 'rechat');
    await sendNotification(t.deps, [user.id], { message: 'earlier', transports: [] });
    const sent = await sendNotification(t.deps, [user.id], {
      message: 'A new listing',
      title: 'Alert',
      subject: ABC,
      subject_class: 'Deal',
    });
    expect(await pushJobs(t.deps)).toHaveLength(2);
    const before = await pushCount(t.deps, 'webpush', 'sent');
    await run();
    expect(fake.problems).toEqual([]);
    const mine = fake.accepted.filter((a) => [phone.id, laptop.id].includes(a.subscription));
    expect(mine.map((a) => a.subscription).sort()).toEqual([phone.id, laptop.id].sort());
    expect(mine[0]!.payload).toEqual({
      title: 'Alert',
      body: 'A new listing',
      badge: 2,
      sound: null,
      data: { notification_id: sent!.id, notification_type: 'DealTested', subject_class: 'Deal', subject: ABC },
    });
    expect(mine[0]!.claims).toMatchObject({ aud: fake.origin, sub: 'mailto:ops@gable.test' });
    expect(mine[0]!.headers.urgency).toBe('normal');
    const rows = await deliveriesOf(t.deps, sent!.id);
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
    ]);
    const feed = await t.app.inject({ method: 'GET', url: `/notifications/${sent!.id}`, headers: user.headers });
    expect(feed.json().data.delivered_at).toBe(t.clock.now().getTime() / 1000);
    expect(await pushCount(t.deps, 'webpush', 'sent')).toBe(before + 2);

    // A job that runs again (a worker died after sending) finds its row done and sends nothing.
    const { pushTask } = await import('./push.tasks.js');
    await handlerOf(pushTask.name).run(t.deps, { delivery: rows[0]!.id, attempt: 1 }, new AbortController().signal);
    expect(fake.accepted.filter((a) => a.subscription === phone.id || a.subscription === laptop.id)).toHaveLength(2);
  });

  it('retries a 5xx with backoff and a 429 after its Retry-After, then delivers', async () => {
    const user = await feedUser(t.deps);
    const device = fake.subscribe();
    await addDevice(t.deps, user.id, 'webpush', device.json);
    fake.script(device.id, [{ status: 503 }, { status: 429, retryAfter: '120' }]);
    const sent = await sendNotification(t.deps, [user.id]);
    await run();
    let [row] = await deliveriesOf(t.deps, sent!.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status: 503 });
    const [second] = await pushJobs(t.deps);
    expect(second!.data).toEqual({ delivery: row!.id, attempt: 2 });
    const wait = (second!.startAfter.getTime() - t.clock.now().getTime()) / 1000;
    expect(wait).toBeGreaterThanOrEqual(9);
    expect(wait).toBeLessThanOrEqual(11);
    expect(await run()).toBe(0); // not due yet

    t.clock.advance(11);
    await run();
    [row] = await deliveriesOf(t.deps, sent!.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 2, last_status: 429 });
    const [third] = await pushJobs(t.deps);
    expect((third!.startAfter.getTime() - t.clock.now().getTime()) / 1000).toBe(120);

    t.clock.advance(120);
    await run();
    [row] = await deliveriesOf(t.deps, sent!.id);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, last_status: 201 });
    expect(fake.requests.filter((r) => r.subscription === device.id).map((r) => r.status)).toEqual([503, 429, 201]);
    expect(fake.accepted.filter((a) => a.subscription === device.id)).toHaveLength(1);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts`, async () => {
    const user = await feedUser(t.deps);
    const device = fake.subscribe();
    await addDevice(t.deps, user.id, 'webpush', device.json);
    fake.script(
      device.id,
      Array.from({ length: MAX_ATTEMPTS }, () => ({ status: 500 })),
    );
    const sent = await sendNotification(t.deps, [user.id]);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await run();
      t.clock.advance(3600);
    }
    const [row] = await deliveriesOf(t.deps, sent!.id);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(await pushJobs(t.deps)).toEqual([]);
  });

  it('deletes a subscription the push service says is gone (410, 404), at once', async () => {
    const user = await feedUser(t.deps);
    const [gone, unknown] = [fake.subscribe(), fake.subscribe()];
    const goneToken = await addDevice(t.deps, user.id, 'webpush', gone.json);
    const unknownToken = await addDevice(t.deps, user.id, 'webpush', unknown.json);
    fake.script(gone.id, [{ status: 410 }]);
    fake.script(unknown.id, [{ status: 404 }]);
    const sent = await sendNotification(t.deps, [user.id]);
    await run();
    const rows = await deliveriesOf(t.deps, sent!.id);
    expect(rows.map((r) => r.status)).toEqual(['dead_token', 'dead_token']);
    const left = await t.deps.db
      .selectFrom('notification_tokens')
      .select('id')
      .where('id', 'in', [goneToken, unknownToken])
      .execute();
    expect(left).toEqual([]);
    expect(await pushJobs(t.deps)).toEqual([]);
  });

  it('sends listing alerts silently outside 08:00–23:59 local time, and other notifications normally', async () => {
    const user = await feedUser(t.deps); // time zone UTC
    const device = fake.subscribe();
    await addDevice(t.deps, user.id, 'webpush', device.json);
    t.clock.set(nextUtcHour(3));
    await sendNotification(t.deps, [user.id], { message: 'Price drop', subject: L1, subject_class: 'Listing' });
    await sendNotification(t.deps, [user.id], { message: 'Deal updated', subject: D1, subject_class: 'Deal' });
    await run();
    const payloads = fake.accepted.filter((a) => a.subscription === device.id);
    const night = payloads.map((a) => a.payload as { silent?: boolean; body?: string; data: { subject: string } });
    expect(night.find((p) => p.data.subject === L1)).toMatchObject({ silent: true });
    expect(night.find((p) => p.data.subject === L1)!.body).toBeUndefined();
    expect(night.find((p) => p.data.subject === D1)).toMatchObject({ body: 'Deal updated' });
    t.clock.advance(6 * 3600); // 09:00
    await sendNotification(t.deps, [user.id], { message: 'Back on market', subject: L2, subject_class: 'Listing' });
    await run();
    const day = fake.accepted
      .filter((a) => a.subscription === device.id)
      .map((a) => a.payload as { silent?: boolean; data: { subject: string } });
    expect(day.find((p) => p.data.subject === L2)).toMatchObject({ body: 'Back on market' });
    expect(day.find((p) => p.data.subject === L2)!.silent).toBeUndefined();
  });

  it('records a push to a provider that is not configured as skipped, without a job', async () => {
    const user = await feedUser(t.deps);
    await addDevice(t.deps, user.id, 'fcm', `fcm-token:${'x'.repeat(40)}`);
    const before = await pushCount(t.deps, 'fcm', 'skipped');
    const sent = await sendNotification(t.deps, [user.id]);
    expect((await deliveriesOf(t.deps, sent!.id)).map((r) => r.status)).toEqual(['skipped']);
    expect(await pushJobs(t.deps)).toEqual([]);
    expect(await pushCount(t.deps, 'fcm', 'skipped')).toBe(before + 1);
  });

  it('pushes only to the devices of the notification app, and not at all without the push transport', async () => {
    const user = await feedUser(t.deps);
    await addDevice(t.deps, user.id, 'webpush', fake.subscribe().json, 'rechat');
    const other = await sendNotification(t.deps, [user.id], { app: 'another-app' });
    const feedOnly = await sendNotification(t.deps, [user.id], { transports: [] });
    expect(await deliveriesOf(t.deps, other!.id)).toEqual([]);
    expect(await deliveriesOf(t.deps, feedOnly!.id)).toEqual([]);
  });

  it('signs one VAPID JWT per push service and reuses it until an hour before it expires', async () => {
    let now = Date.now();
    const sender = new WebPushSender(t.deps.outbound, t.deps.config.push.vapid!, t.deps.clock, {
      now: () => new Date(now),
    });
    const jwtOf = (subscription: string) =>
      String(fake.accepted.filter((a) => a.subscription === subscription).at(-1)!.headers.authorization);
    const push = async () => {
      const device = fake.subscribe();
      const message = {
        id: randomUUID(),
        title: null,
        body: 'hi',
        badge: 1,
        sound: null,
        silent: false,
        data: { notification_id: randomUUID(), notification_type: 'Tested', subject_class: null, subject: null },
      };
      expect(await sender.send(device.json, message)).toMatchObject({ outcome: 'sent' });
      return jwtOf(device.id);
    };
    const first = await push();
    now += (VAPID_JWT_SECONDS - 3601) * 1000; // still more than an hour left: the same JWT
    expect(await push()).toBe(first);
    now += 2000; // less than an hour left: a new one
    const renewed = await push();
    expect(renewed).not.toBe(first);
    now -= 5 * 3600_000; // the clock went back: never a JWT signed "in the future"
    expect(await push()).not.toBe(renewed);
    expect(fake.problems).toEqual([]); // each one verified by the push service
  });

  it('tells a browser app the VAPID public key', async () => {
    const user = await feedUser(t.deps);
    const res = await t.app.inject({ method: 'GET', url: '/notifications/vapid-public-key', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'OK', data: { type: 'vapid_public_key', public_key: VAPID.publicKey } });
    expect((await t.app.inject({ method: 'GET', url: '/notifications/vapid-public-key' })).statusCode).toBe(401);
  });
});
