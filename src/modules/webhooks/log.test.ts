// Delivery log, replay, enable, ping, key rotation and the attempt purge.
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { recordEvent } from '../../events/outbox.js';
import { purgeOldAttempts } from './log.service.js';
import { brandUser, fanOutAll, Receiver, runDue, type Received } from '../../../test/helpers/webhooks.js';

const t = useTestApp({ env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } });
const receiver = new Receiver();
let admin: Awaited<ReturnType<typeof brandUser>>;

beforeAll(async () => {
  await receiver.start();
  admin = await brandUser(t.deps);
});
afterAll(() => receiver.stop());
afterEach(() => {
  receiver.respond = (_req, res) => res.writeHead(204).end();
});

const base = () => `/brands/${admin.brand}/webhooks`;
const header = (r: Received, name: string) => String(r.headers[name]);
const at = (path: string) => receiver.received.filter((r) => r.url === path);

async function hook(path: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: base(),
    headers: admin.headers,
    payload: { topic: 'Deals', url: receiver.url(path) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return {
    id: res.json().data.id as string,
    key: res.json().info.key as string,
    secret: res.json().info.secret as string,
  };
}

async function event(n: number): Promise<void> {
  const subject = '8f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e';
  await t.deps.db
    .transaction()
    .execute((trx) =>
      recordEvent(trx, { brand: admin.brand, topic: 'Deals', event: 'Updated', subject, payload: { n } }),
    );
}

async function deliveredCount(webhook: string): Promise<number> {
  return (await t.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook', '=', webhook).execute())
    .length;
}

async function settle(webhook: string, count: number): Promise<void> {
  for (let i = 0; i < 100 && (await deliveredCount(webhook)) < count; i++) {
    await fanOutAll(t.deps);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await runDue(t.deps);
}

describe('delivery log and replay', () => {
  it('lists deliveries newest first with their attempts, and replays one with the same webhook-id', async () => {
    const h = await hook('/log');
    receiver.respond = (_req, res) => res.writeHead(500).end('x'.repeat(3000));
    await event(1);
    await settle(h.id, 1);
    t.clock.advance(1);
    receiver.respond = (_req, res) => res.writeHead(200).end('thanks');
    await event(2);
    await settle(h.id, 2);

    const log = await t.app.inject({ url: `${base()}/${h.id}/deliveries`, headers: admin.headers });
    expect(log.statusCode, log.body).toBe(200);
    const [newest, oldest] = log.json().data;
    expect(log.json().info).toEqual({ count: 2, total: 2 });
    expect(newest).toMatchObject({
      status: 'delivered',
      event: 'Updated',
      topic: 'Deals',
      type: 'webhook_delivery',
      attempts: [{ attempt: 1, http_status: 200, response: 'thanks', error: null }],
    });
    expect(oldest).toMatchObject({ status: 'pending', attempts: [{ attempt: 1, http_status: 500 }] });
    expect(oldest.attempts[0].response).toHaveLength(1024);

    const before = at('/log').length;
    const retried = await t.app.inject({
      method: 'POST',
      url: `${base()}/${h.id}/deliveries/${newest.id}/retry`,
      headers: admin.headers,
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().data.status).toBe('pending');
    await runDue(t.deps);
    const again = at('/log').slice(before);
    expect(again.map((r) => header(r, 'webhook-id'))).toEqual([newest.id]);
    const after = (await t.app.inject({ url: `${base()}/${h.id}/deliveries`, headers: admin.headers })).json().data[0];
    expect(after.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2]);

    const other = await brandUser(t.deps);
    expect(
      (await t.app.inject({ url: `/brands/${other.brand}/webhooks/${h.id}/deliveries`, headers: other.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `${base()}/${h.id}/deliveries/${h.id}/retry`,
          headers: admin.headers,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('enables a webhook disabled by 410; a disabled one refuses replays and pings (409)', async () => {
    const h = await hook('/gone');
    receiver.respond = (_req, res) => res.writeHead(410).end();
    await event(3);
    await settle(h.id, 1);
    const record = (await t.app.inject({ url: `${base()}/${h.id}`, headers: admin.headers })).json().data;
    expect(record.disabled_at).not.toBeNull();
    expect(
      (await t.app.inject({ method: 'POST', url: `${base()}/${h.id}/test`, headers: admin.headers })).statusCode,
    ).toBe(409);
    const enabled = await t.app.inject({ method: 'POST', url: `${base()}/${h.id}/enable`, headers: admin.headers });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().data).toMatchObject({ disabled_at: null, disabled_reason: null });
    await event(4);
    await settle(h.id, 2);
    expect(await deliveredCount(h.id)).toBe(2);
  });

  it('sends a signed ping', async () => {
    const h = await hook('/ping');
    const res = await t.app.inject({ method: 'POST', url: `${base()}/${h.id}/test`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ event: 'ping', status: 'pending' });
    await runDue(t.deps);
    const [got] = at('/ping');
    const body = new Webhook(h.secret).verify(got!.body, {
      'webhook-id': header(got!, 'webhook-id'),
      'webhook-timestamp': header(got!, 'webhook-timestamp'),
      'webhook-signature': header(got!, 'webhook-signature'),
    });
    expect(body).toMatchObject({ topic: 'Deals', event: 'ping', payload: { webhook: h.id } });
  });
});

describe('key rotation', () => {
  it('returns a new key once and signs with both keys for 24 hours', async () => {
    const h = await hook('/rotate');
    const res = await t.app.inject({ method: 'POST', url: `${base()}/${h.id}/rotate`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const fresh = res.json().info as { key: string; secret: string };
    expect(fresh.key).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh.key).not.toBe(h.key);
    await t.app.inject({ method: 'POST', url: `${base()}/${h.id}/test`, headers: admin.headers });
    await runDue(t.deps);
    const [got] = at('/rotate');
    const headers = {
      'webhook-id': header(got!, 'webhook-id'),
      'webhook-timestamp': header(got!, 'webhook-timestamp'),
      'webhook-signature': header(got!, 'webhook-signature'),
    };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(fresh.secret).verify(got!.body, headers)).toMatchObject({ event: 'ping' });
    expect(new Webhook(h.secret).verify(got!.body, headers)).toMatchObject({ event: 'ping' });
    expect(header(got!, 'x-rechat-signature')).toBe(
      createHmac('sha256', Buffer.from(fresh.key, 'hex')).update(got!.body).digest('hex'),
    );

    t.clock.advance(24 * 3600 + 1);
    await t.app.inject({ method: 'POST', url: `${base()}/${h.id}/test`, headers: admin.headers });
    await runDue(t.deps);
    const later = at('/rotate')[1]!;
    expect(header(later, 'webhook-signature').split(' ')).toHaveLength(1);
    const expected = createHmac('sha256', Buffer.from(fresh.key, 'hex'))
      .update(`${header(later, 'webhook-id')}.${header(later, 'webhook-timestamp')}.${later.body}`)
      .digest('base64');
    expect(header(later, 'webhook-signature')).toBe(`v1,${expected}`);
  });
});

describe('purge', () => {
  it('deletes attempt rows older than 30 days, keeps newer ones', async () => {
    const h = await hook('/purge');
    await t.app.inject({ method: 'POST', url: `${base()}/${h.id}/test`, headers: admin.headers });
    await runDue(t.deps);
    const count = async () =>
      (
        await t.deps.db
          .selectFrom('webhook_attempts as a')
          .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery')
          .select('a.id')
          .where('d.webhook', '=', h.id)
          .execute()
      ).length;
    expect(await count()).toBe(1);
    t.clock.advance(29 * 24 * 3600);
    await purgeOldAttempts(t.deps);
    expect(await count()).toBe(1);
    t.clock.advance(2 * 24 * 3600);
    expect(await purgeOldAttempts(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(0);
  });
});
