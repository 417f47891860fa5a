// Device tokens (spec §4.8, decisions §10, §13, §16): both registration paths, uniqueness per (app, channel)
// with re-registration moving the device, provider inference and validation, unknown apps, ownership on
// unregistering, and the deprecated route's headers. Nothing is written on a refusal.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { feedUser } from '../../../test/helpers/notifications.js';

const apnsToken = () => randomBytes(32).toString('hex');
const fcmToken = () => `${randomBytes(8).toString('base64url')}:APA91b${randomBytes(100).toString('base64url')}`;
function subscription(endpoint = `https://push.example.com/send/${randomBytes(8).toString('hex')}`) {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const p256dh = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x!, 'base64url'),
    Buffer.from(jwk.y!, 'base64url'),
  ]).toString('base64url');
  return JSON.stringify({
    endpoint,
    expirationTime: null,
    keys: { p256dh, auth: randomBytes(16).toString('base64url') },
  });
}

describe('device tokens', () => {
  const t = useTestApp({ env: { PUSH_APPS: 'brokerage-ios' } });
  const tokens = () => t.deps.db.selectFrom('notification_tokens').selectAll().orderBy('created_at').execute();
  const register = (headers: Record<string, string>, payload: Record<string, unknown>, url = '/notifications/tokens') =>
    t.app.inject({ method: 'POST', url, headers, payload });

  it('registers at both paths, answers the user record, infers the provider and stores the channel encrypted', async () => {
    const user = await feedUser(t.deps);
    const apns = apnsToken();
    const res = await register(user.headers, { channel: apns, device_id: 'iphone', app: 'rechat' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: user.id, type: 'user' });
    expect(JSON.stringify(res.json())).not.toContain(apns); // a user's tokens appear nowhere else
    expect(
      (
        await register(
          user.headers,
          { channel: fcmToken(), device_id: 'pixel', app: 'brokerage-ios' },
          '/notification/tokens',
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (await register(user.headers, { channel: subscription(), device_id: 'firefox', app: 'rechat' })).statusCode,
    ).toBe(200);
    const rows = (await tokens()).filter((r) => r.user === user.id);
    expect(rows.map((r) => [r.device_id, r.provider])).toEqual([
      ['iphone', 'apns'],
      ['pixel', 'fcm'],
      ['firefox', 'webpush'],
    ]);
    expect(rows[0]!.channel_encrypted).not.toContain(apns);
    expect(t.deps.secrets.decrypt(rows[0]!.channel_encrypted)).toBe(apns);
  });

  it('keeps one token per (app, channel): registering it again moves it to the caller', async () => {
    const first = await feedUser(t.deps);
    const second = await feedUser(t.deps);
    const channel = apnsToken();
    await register(first.headers, { channel, device_id: 'shared-phone', app: 'rechat' });
    await register(second.headers, { channel, device_id: 'shared-phone-2', app: 'rechat' });
    await register(second.headers, { channel, device_id: 'other-app', app: 'brokerage-ios' });
    const rows = (await tokens()).filter((r) => r.user === first.id || r.user === second.id);
    expect(rows.map((r) => [r.user, r.app, r.device_id])).toEqual([
      [second.id, 'rechat', 'shared-phone-2'],
      [second.id, 'brokerage-ios', 'other-app'],
    ]);
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const user = await feedUser(t.deps);
    const before = (await tokens()).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ channel: apnsToken(), device_id: 'd', app: 'unknown-app' }, 'app'],
      [{ channel: 'x'.repeat(4097), device_id: 'd', app: 'rechat' }, 'channel'],
      [{ channel: 'é'.repeat(2049), device_id: 'd', app: 'rechat' }, 'channel'], // 4098 bytes in 2049 characters
      [{ channel: 42, device_id: 'd', app: 'rechat' }, 'channel'],
      [{ channel: apnsToken(), device_id: 'd', app: 'rechat', provider: 'sms' }, 'provider'],
      [
        { channel: '{"endpoint": "http://insecure.example.com/x", "keys": {}}', device_id: 'd', app: 'rechat' },
        'channel',
      ],
      [
        {
          channel: '{"endpoint": "https://push.example.com/x", "keys": {"p256dh": "abc", "auth": "def"}}',
          device_id: 'd',
          app: 'rechat',
        },
        'channel',
      ],
      [{ channel: '{not json', device_id: 'd', app: 'rechat' }, 'channel'],
      [{ channel: 'not hex at all', device_id: 'd', app: 'rechat', provider: 'apns' }, 'channel'],
      [{ channel: 'has spaces in it', device_id: 'd', app: 'rechat' }, 'channel'],
    ];
    for (const [payload, field] of cases) {
      const res = await register(user.headers, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(
        Object.keys(res.json().attributes ?? {}).join(' ') + res.json().message,
        JSON.stringify(payload).slice(0, 80),
      ).toContain(field);
    }
    const unknown = await register(user.headers, { channel: apnsToken(), device_id: 'd', app: 'nope' });
    expect(unknown.json().message).toContain('rechat, brokerage-ios');
    expect((await tokens()).length).toBe(before);
  });

  it('unregisters by device_id or channel, only the caller’s own, in one app or (deprecated) in all', async () => {
    const owner = await feedUser(t.deps);
    const other = await feedUser(t.deps);
    const channel = apnsToken();
    await register(owner.headers, { channel, device_id: 'ipad', app: 'rechat' });
    await register(owner.headers, { channel: apnsToken(), device_id: 'ipad', app: 'brokerage-ios' });
    await register(owner.headers, { channel: fcmToken(), device_id: 'tablet', app: 'rechat' });
    const mine = async () =>
      (await tokens())
        .filter((r) => r.user === owner.id)
        .map((r) => `${r.app}/${r.device_id}`)
        .sort();

    const foreign = await t.app.inject({
      method: 'DELETE',
      url: '/notifications/tokens/rechat/ipad',
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/notifications/tokens/rechat/${channel}`, headers: other.headers }))
        .statusCode,
    ).toBe(404);
    expect(await mine()).toEqual(['brokerage-ios/ipad', 'rechat/ipad', 'rechat/tablet']);

    const byChannel = await t.app.inject({
      method: 'DELETE',
      url: `/notifications/tokens/rechat/${channel}`,
      headers: owner.headers,
    });
    expect(byChannel.statusCode).toBe(200);
    expect(byChannel.json().data).toMatchObject({ id: owner.id, type: 'user' });
    expect(byChannel.headers.deprecation).toBeUndefined();
    expect(await mine()).toEqual(['brokerage-ios/ipad', 'rechat/tablet']);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/notifications/tokens/nope/ipad', headers: owner.headers }))
        .statusCode,
    ).toBe(400);

    const deprecated = await t.app.inject({
      method: 'DELETE',
      url: '/notifications/tokens/ipad',
      headers: owner.headers,
    });
    expect(deprecated.statusCode).toBe(200);
    expect(deprecated.headers.deprecation).toBe(`@${Date.parse('2026-01-01') / 1000}`);
    expect(deprecated.headers.link).toBe('</notifications/tokens/:app/:id>; rel="successor-version"');
    expect(await mine()).toEqual(['rechat/tablet']);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/notifications/tokens/ipad', headers: owner.headers })).statusCode,
    ).toBe(404);
    const metrics = await t.deps.metrics.registry.getSingleMetricAsString('gable_deprecated_requests_total');
    expect(metrics).toContain('route="DELETE /notifications/tokens/:id"');
  });

  it('unregisters device tokens of their real lengths on both routes; an over-long id is still a 414', async () => {
    const owner = await feedUser(t.deps);
    // An FCM registration token as issued today (163 characters), an APNs token of 64 hex and one of Apple's
    // longest (200 bytes), and a browser's device_id derived from its Web Push endpoint.
    const fcm = `${randomBytes(16).toString('base64url').slice(0, 22)}:APA91b${randomBytes(100).toString('base64url')}`;
    expect(fcm).toHaveLength(163);
    const apns = apnsToken();
    const longApns = randomBytes(200).toString('hex');
    const endpoint = `https://fcm.googleapis.com/fcm/send/${fcm}`;
    await register(owner.headers, { channel: fcm, device_id: 'pixel', app: 'rechat' });
    await register(owner.headers, { channel: apns, device_id: 'iphone', app: 'rechat', provider: 'apns' });
    await register(owner.headers, { channel: longApns, device_id: 'ipad', app: 'brokerage-ios', provider: 'apns' });
    await register(owner.headers, { channel: subscription(endpoint), device_id: endpoint, app: 'rechat' });
    const mine = async () =>
      (await tokens())
        .filter((r) => r.user === owner.id)
        .map((r) => r.device_id)
        .sort();
    expect(await mine()).toEqual([endpoint, 'ipad', 'iphone', 'pixel'].sort());

    const unregister = (path: string) =>
      t.app.inject({ method: 'DELETE', url: `/notifications/tokens/${path}`, headers: owner.headers });
    expect((await unregister(`rechat/${fcm}`)).statusCode).toBe(200);
    expect((await unregister(`rechat/${apns}`)).statusCode).toBe(200);
    expect((await unregister(encodeURIComponent(endpoint))).statusCode).toBe(200); // deprecated, every app
    expect((await unregister(longApns)).statusCode).toBe(200);
    expect(await mine()).toEqual([]);

    // Where a segment is an id, the limit stays: before the token is even looked at.
    const longId = await t.app.inject({ method: 'DELETE', url: `/notifications/${'a'.repeat(101)}`, headers: {} });
    expect(longId.statusCode).toBe(414);
    expect(longId.json()).toMatchObject({ http: 414, code: 'URITooLong' });
    const longApp = await unregister(`${'a'.repeat(101)}/${fcm}`);
    expect(longApp.statusCode).toBe(414);
    expect((await unregister(`rechat/${'a'.repeat(4097)}`)).statusCode).toBe(414);
  });
});
