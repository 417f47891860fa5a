// FCM HTTP v1 and APNs delivery against loopback fakes: FCM's token endpoint checks the service account's JWT
// assertion and the access token is cached; APNs on node:http2 with TLS checks the ES256 provider token,
// apns-topic and apns-push-type. Each: success, retry (5xx, 429 + Retry-After), and the provider's dead-device
// answer deleting the token (FCM UNREGISTERED; APNs 410 Unregistered, 400 BadDeviceToken).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { startFakeApns, type FakeApns } from '../../../test/fakes/apns.js';
import { startFakeFcm, type FakeFcm } from '../../../test/fakes/fcm.js';
import { OutboundHttp } from '../../lib/outbound.js';
import { ApnsSender } from './push.apns.js';
import { feedUser, sendNotification } from '../../../test/helpers/notifications.js';
import {
  addDevice,
  apnsEnv,
  apnsToken,
  deliveriesOf,
  fcmEnv,
  fcmToken,
  pushCount,
  pushJobs,
} from '../../../test/helpers/push.js';

describe('FCM and APNs delivery', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gable-push-'));
  const env: Record<string, string> = {};
  let fcm: FakeFcm;
  let apns: FakeApns;
  // Registered before useTestApp: the fakes run (and `env` is filled) before the app is built.
  beforeAll(async () => {
    fcm = await startFakeFcm(dir);
    apns = await startFakeApns(dir);
    Object.assign(env, {
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      ...fcmEnv(fcm),
      ...apnsEnv(apns),
    });
  });
  const t = useTestApp({ env });
  afterAll(async () => {
    await fcm.close();
    await apns.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => t.clock.set(new Date(Date.now() + 3600_000)));
  const run = () =>
    runQueuedJobs(t.deps, ['notifications.push'], {
      dueBy: new Date(Math.max(t.clock.now().getTime(), Date.now()) + 1000),
    });
  const tokenExists = async (id: string) =>
    (await t.deps.db.selectFrom('notification_tokens').select('id').where('id', '=', id).execute()).length === 1;

  it('FCM: exchanges a signed assertion for an access token once, and sends the message with badge and data', async () => {
    const user = await feedUser(t.deps);
    const [a, b] = [fcmToken(), fcmToken()];
    await addDevice(t.deps, user.id, 'fcm', a);
    await addDevice(t.deps, user.id, 'fcm', b);
    const subject = randomUUID();
    const sent = await sendNotification(t.deps, [user.id], {
      message: 'Offer accepted',
      title: 'Deal',
      subject,
      subject_class: 'Deal',
    });
    await run();
    expect(fcm.problems).toEqual([]);
    expect(fcm.exchanges).toBe(1);
    const mine = fcm.accepted.filter((m) => [a, b].includes(m.token));
    expect(mine).toHaveLength(2);
    expect(mine[0]!.message).toMatchObject({
      notification: { title: 'Deal', body: 'Offer accepted' },
      data: { notification_id: sent!.id, notification_type: 'DealTested', subject_class: 'Deal', subject, badge: '1' },
      android: { priority: 'HIGH', notification: { notification_count: 1 } },
    });
    expect((await deliveriesOf(t.deps, sent!.id)).map((r) => r.status)).toEqual(['sent', 'sent']);
    await sendNotification(t.deps, [user.id]);
    await run();
    expect(fcm.exchanges).toBe(1); // cached until it expires
  });

  it('FCM: retries 503 and 429 (after Retry-After), and deletes an UNREGISTERED token', async () => {
    const user = await feedUser(t.deps);
    const [flaky, gone] = [fcmToken(), fcmToken()];
    await addDevice(t.deps, user.id, 'fcm', flaky);
    const goneId = await addDevice(t.deps, user.id, 'fcm', gone);
    fcm.script(flaky, [
      { status: 503, errorCode: 'UNAVAILABLE' },
      { status: 429, errorCode: 'QUOTA_EXCEEDED', retryAfter: '30' },
    ]);
    fcm.script(gone, [{ status: 404, errorCode: 'UNREGISTERED' }]);
    const before = await pushCount(t.deps, 'fcm', 'dead_token');
    const sent = await sendNotification(t.deps, [user.id]);
    await run();
    expect(await tokenExists(goneId)).toBe(false);
    expect(await pushCount(t.deps, 'fcm', 'dead_token')).toBe(before + 1);
    t.clock.advance(11);
    await run();
    const [retry] = await pushJobs(t.deps);
    expect((retry!.startAfter.getTime() - t.clock.now().getTime()) / 1000).toBe(30);
    t.clock.advance(30);
    await run();
    const rows = await deliveriesOf(t.deps, sent!.id);
    expect(rows.map((r) => [r.status, r.attempts]).sort()).toEqual([
      ['dead_token', 1],
      ['sent', 3],
    ]);
    expect(fcm.requests.filter((r) => r.token === flaky).map((r) => r.status)).toEqual([503, 429, 200]);
  });

  it('APNs: sends over HTTP/2 with an ES256 provider token, topic and push type, on one kept connection', async () => {
    const user = await feedUser(t.deps);
    const [phone, tablet] = [apnsToken(), apnsToken()];
    await addDevice(t.deps, user.id, 'apns', phone);
    await addDevice(t.deps, user.id, 'apns', tablet);
    const sent = await sendNotification(t.deps, [user.id], {
      message: 'Showing confirmed',
      title: 'Showing',
      sound: 'default',
    });
    await run();
    expect(apns.problems).toEqual([]);
    const mine = apns.accepted.filter((m) => [phone, tablet].includes(m.device));
    expect(mine).toHaveLength(2);
    expect(mine[0]!.payload).toMatchObject({
      aps: { alert: { title: 'Showing', body: 'Showing confirmed' }, badge: 1, sound: 'default' },
      notification_id: sent!.id,
    });
    expect(mine[0]!.headers).toMatchObject({
      'apns-topic': apns.topic,
      'apns-push-type': 'alert',
      'apns-priority': '10',
    });
    const rows = await deliveriesOf(t.deps, sent!.id);
    expect(mine.map((m) => m.headers['apns-collapse-id']).sort()).toEqual(rows.map((r) => r.id).sort()); // a repeat replaces, never doubles
    expect(apns.connections).toBe(1);
  });

  it('APNs: a listing alert at night is a background push with priority 5 and no alert', async () => {
    const user = await feedUser(t.deps);
    const device = apnsToken();
    await addDevice(t.deps, user.id, 'apns', device);
    const night = new Date();
    night.setUTCHours(27, 0, 0, 0); // 03:00 UTC tomorrow
    t.clock.set(night);
    await sendNotification(t.deps, [user.id], { subject: randomUUID(), subject_class: 'Listing' });
    await run();
    const [push] = apns.accepted.filter((m) => m.device === device);
    expect(push!.headers).toMatchObject({ 'apns-push-type': 'background', 'apns-priority': '5' });
    expect(push!.payload.aps).toEqual({ 'content-available': 1, badge: 1 });
  });

  it('APNs: retries 503 and 429 (after Retry-After); deletes the token on 410 Unregistered and 400 BadDeviceToken', async () => {
    const user = await feedUser(t.deps);
    const [flaky, unregistered, bad] = [apnsToken(), apnsToken(), apnsToken()];
    await addDevice(t.deps, user.id, 'apns', flaky);
    const unregisteredId = await addDevice(t.deps, user.id, 'apns', unregistered);
    const badId = await addDevice(t.deps, user.id, 'apns', bad);
    apns.script(flaky, [
      { status: 503, reason: 'ServiceUnavailable' },
      { status: 429, reason: 'TooManyRequests', retryAfter: '45' },
    ]);
    apns.script(unregistered, [{ status: 410, reason: 'Unregistered' }]);
    apns.script(bad, [{ status: 400, reason: 'BadDeviceToken' }]);
    const sent = await sendNotification(t.deps, [user.id]);
    await run();
    expect(await tokenExists(unregisteredId)).toBe(false);
    expect(await tokenExists(badId)).toBe(false);
    t.clock.advance(11);
    await run();
    const [retry] = await pushJobs(t.deps);
    expect((retry!.startAfter.getTime() - t.clock.now().getTime()) / 1000).toBe(45);
    t.clock.advance(45);
    await run();
    const rows = await deliveriesOf(t.deps, sent!.id);
    expect(rows.map((r) => r.status).sort()).toEqual(['dead_token', 'dead_token', 'sent']);
    expect(apns.requests.filter((r) => r.device === flaky).map((r) => r.status)).toEqual([503, 429, 200]);
  });

  it('APNs: the SSRF guard applies to the HTTP/2 connection too (a loopback APNS_URL is refused unless opened)', async () => {
    const guarded = new ApnsSender(new OutboundHttp(), t.deps.config.push.apns!, t.clock);
    const message = {
      id: randomUUID(),
      title: null,
      body: 'x',
      badge: 0,
      sound: null,
      silent: false,
      data: { notification_id: randomUUID(), notification_type: 'Tested', subject_class: null, subject: null },
    };
    const before = apns.requests.length;
    expect(await guarded.send(apnsToken(), message)).toMatchObject({
      outcome: 'failed',
      error: expect.stringContaining('refused_address'),
    });
    expect(apns.requests.length).toBe(before);
    await guarded.close();
  });
});
