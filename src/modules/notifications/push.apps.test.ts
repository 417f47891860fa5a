// Per-app provider credentials (decisions §16, ADR 0032) against the loopback fakes: each app's devices are pushed
// with that app's own APNs key and topic, FCM project and VAPID keys; an app without its own uses the shared
// ones; an app with neither has its pushes recorded as skipped. Each set of credentials caches its own tokens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { startFakeApns, type FakeApns } from '../../../test/fakes/apns.js';
import { startFakeFcm, type FakeFcm } from '../../../test/fakes/fcm.js';
import { startFakeWebPush, type FakeWebPush } from '../../../test/fakes/webpush.js';
import { feedUser, sendNotification } from '../../../test/helpers/notifications.js';
import {
  addDevice,
  apnsEnv,
  apnsToken,
  deliveriesOf,
  fcmEnv,
  fcmToken,
  vapidKeys,
} from '../../../test/helpers/push.js';
const [SHARED_VAPID, BROKERAGE_VAPID] = [vapidKeys(), vapidKeys()];

describe('push credentials per app', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gable-push-apps-'));
  const env: Record<string, string> = {};
  let mainFcm: FakeFcm;
  let brokerageFcm: FakeFcm;
  let sharedApns: FakeApns;
  let brokerageApns: FakeApns;
  let sharedWebPush: FakeWebPush;
  let brokerageWebPush: FakeWebPush;
  // Registered before useTestApp: the fakes run (and `env` is filled) before the app is built.
  beforeAll(async () => {
    [mainFcm, brokerageFcm] = [
      await startFakeFcm(dir, { projectId: 'rechat-main' }),
      await startFakeFcm(dir, { projectId: 'brokerage-project' }),
    ];
    sharedApns = await startFakeApns(dir);
    brokerageApns = await startFakeApns(dir, { topic: 'com.brokerage.app', keyId: 'BROKERKEY1', teamId: 'BROKTEAM01' });
    [sharedWebPush, brokerageWebPush] = [
      await startFakeWebPush(SHARED_VAPID.publicKey),
      await startFakeWebPush(BROKERAGE_VAPID.publicKey),
    ];
    Object.assign(env, {
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      PUSH_APPS: 'brokerage-ios,other.app',
      VAPID_PUBLIC_KEY: SHARED_VAPID.publicKey,
      VAPID_PRIVATE_KEY: SHARED_VAPID.privateKey,
      VAPID_PUBLIC_KEY_BROKERAGE_IOS: BROKERAGE_VAPID.publicKey,
      VAPID_PRIVATE_KEY_BROKERAGE_IOS: BROKERAGE_VAPID.privateKey,
      VAPID_SUBJECT_BROKERAGE_IOS: 'mailto:push@brokerage.test',
      // No shared FCM: the main app and brokerage-ios each have their own project, other.app has none.
      ...fcmEnv(mainFcm, '_RECHAT'),
      ...fcmEnv(brokerageFcm, '_BROKERAGE_IOS'),
      // Shared APNs for rechat and other.app; brokerage-ios has its own key, team, topic and endpoint (same CA).
      ...apnsEnv(sharedApns),
      ...apnsEnv(brokerageApns, '_BROKERAGE_IOS', { withCa: false }),
    });
  });
  const t = useTestApp({ env });
  afterAll(async () => {
    for (const fake of [mainFcm, brokerageFcm, sharedApns, brokerageApns, sharedWebPush, brokerageWebPush])
      await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => t.clock.set(new Date(Date.now() + 3600_000)));
  const run = () =>
    runQueuedJobs(t.deps, ['notifications.push'], {
      dueBy: new Date(Math.max(t.clock.now().getTime(), Date.now()) + 1000),
    });

  it("pushes each device with its own app's APNs key and topic, FCM project and VAPID keys, else the shared ones", async () => {
    const user = await feedUser(t.deps);
    const apns = { rechat: apnsToken(), brokerage: apnsToken(), other: apnsToken() };
    const fcm = { rechat: fcmToken(), brokerage: fcmToken(), other: fcmToken() };
    const web = {
      rechat: sharedWebPush.subscribe(),
      brokerage: brokerageWebPush.subscribe(),
      other: sharedWebPush.subscribe(),
    };
    const tokens = new Map<string, string>();
    for (const [key, app] of [
      ['rechat', 'rechat'],
      ['brokerage', 'brokerage-ios'],
      ['other', 'other.app'],
    ] as const) {
      tokens.set(await addDevice(t.deps, user.id, 'apns', apns[key], app), `apns ${app}`);
      tokens.set(await addDevice(t.deps, user.id, 'fcm', fcm[key], app), `fcm ${app}`);
      tokens.set(await addDevice(t.deps, user.id, 'webpush', web[key].json, app), `webpush ${app}`);
    }
    const sent = await sendNotification(t.deps, [user.id], { message: 'Offer accepted', title: 'Deal' });
    await run();

    for (const fake of [mainFcm, brokerageFcm, sharedApns, brokerageApns, sharedWebPush, brokerageWebPush])
      expect(fake.problems).toEqual([]);
    // APNs: brokerage-ios with its own key (the fake checks the signature, kid, iss and topic); the others shared.
    expect(brokerageApns.accepted.map((m) => [m.device, m.headers['apns-topic']])).toEqual([
      [apns.brokerage, 'com.brokerage.app'],
    ]);
    expect(sharedApns.accepted.map((m) => m.device).sort()).toEqual([apns.rechat, apns.other].sort());
    expect(sharedApns.accepted.every((m) => m.headers['apns-topic'] === 'com.example.gable')).toBe(true);
    // FCM: each project gets its own app's device; other.app has no FCM at all.
    expect(mainFcm.accepted.map((m) => m.token)).toEqual([fcm.rechat]);
    expect(brokerageFcm.accepted.map((m) => m.token)).toEqual([fcm.brokerage]);
    // Web Push: each push service checks the VAPID JWT against the key the subscription was made with.
    expect(brokerageWebPush.accepted.map((a) => a.subscription)).toEqual([web.brokerage.id]);
    expect(brokerageWebPush.accepted[0]!.claims).toMatchObject({ sub: 'mailto:push@brokerage.test' });
    expect(sharedWebPush.accepted.map((a) => a.subscription).sort()).toEqual([web.rechat.id, web.other.id].sort());

    const rows = await deliveriesOf(t.deps, sent!.id);
    const outcome = Object.fromEntries(rows.map((row) => [tokens.get(row.token!)!, [row.status, row.app]]));
    expect(outcome).toEqual({
      'apns rechat': ['sent', 'rechat'],
      'apns brokerage-ios': ['sent', 'brokerage-ios'],
      'apns other.app': ['sent', 'other.app'],
      'fcm rechat': ['sent', 'rechat'],
      'fcm brokerage-ios': ['sent', 'brokerage-ios'],
      'fcm other.app': ['skipped', 'other.app'],
      'webpush rechat': ['sent', 'rechat'],
      'webpush brokerage-ios': ['sent', 'brokerage-ios'],
      'webpush other.app': ['sent', 'other.app'],
    });
  });

  it('caches per set of credentials: one FCM access token per project, one APNs connection per key', async () => {
    const user = await feedUser(t.deps);
    await addDevice(t.deps, user.id, 'fcm', fcmToken(), 'rechat');
    await addDevice(t.deps, user.id, 'fcm', fcmToken(), 'brokerage-ios');
    await addDevice(t.deps, user.id, 'apns', apnsToken(), 'rechat');
    await addDevice(t.deps, user.id, 'apns', apnsToken(), 'other.app');
    await addDevice(t.deps, user.id, 'apns', apnsToken(), 'brokerage-ios');
    await sendNotification(t.deps, [user.id]);
    await run();
    await sendNotification(t.deps, [user.id], { app: 'brokerage-ios' });
    await run();
    expect([mainFcm.exchanges, brokerageFcm.exchanges]).toEqual([1, 1]);
    // rechat and other.app share the shared APNs sender (and so its connection and JWT).
    expect([sharedApns.connections, brokerageApns.connections]).toEqual([1, 1]);
    expect(brokerageFcm.accepted).toHaveLength(3);
  });

  it("answers each app's VAPID public key, the main app's by default", async () => {
    const user = await feedUser(t.deps);
    const key = async (query: string) =>
      t.app.inject({ method: 'GET', url: `/notifications/vapid-public-key${query}`, headers: user.headers });
    expect((await key('')).json().data.public_key).toBe(SHARED_VAPID.publicKey);
    expect((await key('?app=rechat')).json().data.public_key).toBe(SHARED_VAPID.publicKey);
    expect((await key('?app=brokerage-ios')).json().data.public_key).toBe(BROKERAGE_VAPID.publicKey);
    expect((await key('?app=other.app')).json().data.public_key).toBe(SHARED_VAPID.publicKey);
    const unknown = await key('?app=nope');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('brokerage-ios');
  });
});
