// The delivery engine against a loopback receiver: outbox → deliveries, signatures checked with the reference
// library and node:crypto, the retry schedule on a ManualClock, and every kind of receiver misbehaviour.
import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { recordEvent } from '../../events/outbox.js';
import { FAILING_DISABLE_SECONDS, MAX_ATTEMPTS, RETRY_SCHEDULE, retryDelaySeconds } from './deliveries.service.js';
import { brandUser, fanOutAll, Receiver, runDue, type Received } from '../../../test/helpers/webhooks.js';
import { BEHIND_PRIORITY } from './webhooks.tasks.js';

const t = useTestApp({ env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } });
const receiver = new Receiver();

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());
afterEach(() => {
  receiver.respond = (_req, res) => res.writeHead(204).end();
});

interface Hook {
  id: string;
  key: string;
  secret: string;
}

async function hook(brand: string, headers: Record<string, string>, topic: string, path = '/hook'): Promise<Hook> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/brands/${brand}/webhooks`,
    headers,
    payload: { topic, url: receiver.url(path) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().data.id, key: res.json().info.key, secret: res.json().info.secret };
}

const deliveriesOf = (webhook: string) =>
  t.deps.db.selectFrom('webhook_deliveries').selectAll().where('webhook', '=', webhook).orderBy('event_id').execute();
const receivedAt = (path: string) => receiver.received.filter((r) => r.url === path);
const header = (r: Received, name: string) => String(r.headers[name]);

/** Both signatures, checked by independent code: the Standard Webhooks library and plain node:crypto. */
function verify(r: Received, h: Hook): unknown {
  const hex = createHmac('sha256', Buffer.from(h.key, 'hex')).update(r.body).digest('hex');
  expect(header(r, 'x-rechat-signature')).toBe(hex);
  return new Webhook(h.secret).verify(r.body, {
    'webhook-id': header(r, 'webhook-id'),
    'webhook-timestamp': header(r, 'webhook-timestamp'),
    'webhook-signature': header(r, 'webhook-signature'),
  });
}

describe('from the outbox to signed deliveries', () => {
  it('delivers a created contact, signed, to the brand’s Contacts webhook only', async () => {
    const admin = await brandUser(t.deps, { acl: ['Admin', 'CRM'] });
    const contacts = await hook(admin.brand, admin.headers, 'Contacts', '/contacts-1');
    const deals = await hook(admin.brand, admin.headers, 'Deals', '/deals-1');
    const stranger = await brandUser(t.deps);
    const foreign = await hook(stranger.brand, stranger.headers, 'Contacts', '/foreign-1');
    const created = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...admin.headers, 'x-rechat-brand': admin.brand },
      payload: { first_name: 'Ada' },
    });
    expect(created.statusCode).toBe(200);
    await fanOutAll(t.deps);
    expect(await runDue(t.deps)).toBeGreaterThanOrEqual(1);

    const [got, ...more] = receivedAt('/contacts-1');
    expect(more).toEqual([]);
    const body = verify(got!, contacts) as {
      topic: string;
      event: string;
      timestamp: number;
      payload: { contacts: { id: string; first_name: string }[] };
    };
    expect(body).toMatchObject({
      topic: 'Contacts',
      event: 'create',
      payload: { contacts: [{ id: created.json().data.id, first_name: 'Ada' }] },
    });
    expect(body.timestamp).toBeGreaterThan(1e12); // milliseconds
    expect(header(got!, 'content-type')).toBe('application/json');
    expect(receivedAt('/deals-1')).toEqual([]);
    expect(receivedAt('/foreign-1')).toEqual([]);
    const [delivery] = await deliveriesOf(contacts.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, last_status: 204 });
    expect(header(got!, 'webhook-id')).toBe(delivery!.id);
    expect(await deliveriesOf(deals.id)).toEqual([]);
    expect(await deliveriesOf(foreign.id)).toEqual([]);
    const attempts = await t.deps.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery', '=', delivery!.id)
      .execute();
    expect(attempts).toMatchObject([{ attempt: 1, http_status: 204, error: null }]);
  });

  it('enqueues a pg-boss job per delivery in the fan-out transaction', async () => {
    const admin = await brandUser(t.deps, { acl: ['Admin', 'CRM'] });
    const h = await hook(admin.brand, admin.headers, 'Contacts', '/jobs');
    await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...admin.headers, 'x-rechat-brand': admin.brand },
      payload: { first_name: 'Job' },
    });
    await fanOutAll(t.deps);
    const [delivery] = await deliveriesOf(h.id);
    const jobs = await sql<{
      n: number;
    }>`select count(*)::int as n from pgboss.job where name = 'webhooks.deliver' and data->>'delivery' = ${delivery!.id} and (data->>'attempt')::int = 1`.execute(
      t.deps.db,
    );
    expect(jobs.rows[0]!.n).toBe(1);
    // a second fan-out finds nothing new: no second delivery, no second job
    await fanOutAll(t.deps);
    expect(await deliveriesOf(h.id)).toHaveLength(1);
  });

  it('sends Contacts in chunks of at most 50, one delivery per chunk', async () => {
    const admin = await brandUser(t.deps, { acl: ['Admin', 'CRM'] });
    const h = await hook(admin.brand, admin.headers, 'Contacts', '/bulk');
    const contacts = Array.from({ length: 120 }, (_, i) => ({ first_name: `Bulk ${i}` }));
    const res = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...admin.headers, 'x-rechat-brand': admin.brand },
      payload: { contacts },
    });
    expect(res.statusCode, res.body).toBe(200);
    await fanOutAll(t.deps);
    await runDue(t.deps);
    const bodies = receivedAt('/bulk').map((r) => verify(r, h) as { event: string; payload: { contacts: unknown[] } });
    expect(bodies.map((b) => b.payload.contacts.length)).toEqual([50, 50, 20]);
    expect(bodies.every((b) => b.event === 'create')).toBe(true);
    expect(new Set(receivedAt('/bulk').map((r) => header(r, 'webhook-id'))).size).toBe(3);
  });

  it('sends Activities exactly as spec §6', async () => {
    const admin = await brandUser(t.deps, { acl: ['Admin', 'CRM'] });
    const h = await hook(admin.brand, admin.headers, 'Activities', '/activities');
    const headers = { ...admin.headers, 'x-rechat-brand': admin.brand };
    const contact = (
      await t.app.inject({ method: 'POST', url: '/contacts', headers, payload: { first_name: 'Viewer' } })
    ).json().data.id as string;
    const listing = {
      mls: 'WEBHOOKMLS',
      mls_number: 'W-1',
      status: 'Active',
      price: 450000,
      address: '1 Main St, Austin, TX',
    };
    const activity = await t.app.inject({
      method: 'POST',
      url: `/contacts/${contact}/timeline`,
      headers,
      payload: { action: 'ContactViewedListing', listing },
    });
    expect(activity.statusCode, activity.body).toBe(200);
    await fanOutAll(t.deps);
    await runDue(t.deps);
    const [got, ...more] = receivedAt('/activities');
    expect(more).toEqual([]);
    const body = verify(got!, h) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['event', 'payload', 'timestamp', 'topic']);
    expect(body).toMatchObject({ topic: 'Activities', event: 'ContactViewedListing' });
    const sent = (body.payload as { activity: Record<string, unknown> }).activity;
    expect(sent).toMatchObject({
      id: activity.json().data.id,
      action: 'ContactViewedListing',
      contact,
      listing: {
        mls: 'WEBHOOKMLS',
        mls_number: 'W-1',
        status: 'Active',
        price: 450000,
        address: '1 Main St, Austin, TX',
      },
    });
    expect(typeof sent.created_at).toBe('number');
    expect(sent.created_at as number).toBeLessThan(1e11); // seconds
    expect(body.timestamp as number).toBeGreaterThan(1e12); // milliseconds: when the event was recorded
  });

  it('sends Deals also to the ancestors’ webhooks; other topics stay in their brand', async () => {
    const admin = await brandUser(t.deps, { acl: ['Admin'] });
    const office = (await createBrand(t.deps, { parent: admin.brand })).id;
    const sibling = (await createBrand(t.deps, { parent: admin.brand })).id;
    const parentDeals = await hook(admin.brand, admin.headers, 'Deals', '/parent-deals');
    const officeDeals = await hook(office, admin.headers, 'Deals', '/office-deals');
    const siblingDeals = await hook(sibling, admin.headers, 'Deals', '/sibling-deals');
    const parentShowings = await hook(admin.brand, admin.headers, 'Showings', '/parent-showings');
    const subject = '6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e';
    await t.deps.db.transaction().execute(async (trx) => {
      await recordEvent(trx, {
        brand: office,
        topic: 'Deals',
        event: 'Created',
        subject,
        payload: { deal: { id: subject } },
      });
      await recordEvent(trx, {
        brand: office,
        topic: 'Showings',
        event: 'showing.created',
        subject,
        payload: { showing: { id: subject } },
      });
    });
    await fanOutAll(t.deps);
    await runDue(t.deps);
    expect(receivedAt('/parent-deals')).toHaveLength(1);
    expect(receivedAt('/office-deals')).toHaveLength(1);
    expect(verify(receivedAt('/parent-deals')[0]!, parentDeals)).toMatchObject({
      topic: 'Deals',
      event: 'Created',
      payload: { deal: { id: subject } },
    });
    expect(verify(receivedAt('/office-deals')[0]!, officeDeals)).toMatchObject({ topic: 'Deals' });
    expect(receivedAt('/sibling-deals')).toEqual([]);
    expect(receivedAt('/parent-showings')).toEqual([]);
    expect(await deliveriesOf(siblingDeals.id)).toEqual([]);
    expect(await deliveriesOf(parentShowings.id)).toEqual([]);
  });
});

describe('retries and failures', () => {
  /** A webhook with one pending delivery (a Deals event recorded straight into the outbox). */
  async function pending(
    path: string,
  ): Promise<{ hook: Hook; delivery: string; admin: Awaited<ReturnType<typeof brandUser>> }> {
    const admin = await brandUser(t.deps);
    const h = await hook(admin.brand, admin.headers, 'Deals', path);
    const subject = '7f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e';
    await t.deps.db
      .transaction()
      .execute((trx) =>
        recordEvent(trx, { brand: admin.brand, topic: 'Deals', event: 'Updated', subject, payload: { n: 1 } }),
      );
    for (let i = 0; i < 100 && (await deliveriesOf(h.id)).length === 0; i++)
      await fanOutAll(t.deps).then(() => new Promise((r) => setTimeout(r, 50)));
    const [delivery] = await deliveriesOf(h.id);
    expect(delivery).toBeDefined();
    return { hook: h, delivery: delivery!.id, admin };
  }
  /** The in-app notifications a user reads in the feed (GET /notifications). */
  const feedOf = async (headers: Record<string, string>) => {
    const res = await t.app.inject({ url: '/notifications', headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { notification_type: string; message: string; subject: string }[];
  };
  const deliveryRow = (id: string) =>
    t.deps.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const webhookRow = (id: string) =>
    t.deps.db.selectFrom('brand_webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('retries a 500 after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (±10 %), then gives up; same webhook-id throughout', async () => {
    receiver.respond = (_req, res) => res.writeHead(500).end('down');
    const { hook: h, delivery } = await pending('/retry');
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const before = t.deps.clock.now().getTime();
      await runDue(t.deps);
      const row = await deliveryRow(delivery);
      expect(row.attempts).toBe(attempt);
      expect(row.last_status).toBe(500);
      if (attempt === MAX_ATTEMPTS) {
        expect(row.status).toBe('failed');
        expect(row.next_attempt_at).toBeNull();
        break;
      }
      expect(row.status).toBe('pending');
      const waited = (row.next_attempt_at!.getTime() - before) / 1000;
      const base = RETRY_SCHEDULE[attempt - 1]!;
      expect(waited).toBeGreaterThanOrEqual(base * 0.9);
      expect(waited).toBeLessThanOrEqual(base * 1.1);
      // not due a moment before, due at the scheduled time
      t.clock.set(row.next_attempt_at!.getTime() - 1000);
      expect(await runDue(t.deps)).toBe(0);
      t.clock.set(row.next_attempt_at!);
      const job = await sql<{
        n: number;
      }>`select count(*)::int as n from pgboss.job where name = 'webhooks.deliver' and data->>'delivery' = ${delivery} and (data->>'attempt')::int = ${attempt + 1}`.execute(
        t.deps.db,
      );
      expect(job.rows[0]!.n).toBe(1);
    }
    const got = receivedAt('/retry');
    expect(got).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(got.map((r) => header(r, 'webhook-id')))).toEqual(new Set([delivery]));
    expect(new Set(got.map((r) => header(r, 'webhook-timestamp'))).size).toBe(MAX_ATTEMPTS);
    for (const r of got)
      expect(header(r, 'x-rechat-signature')).toBe(
        createHmac('sha256', Buffer.from(h.key, 'hex')).update(r.body).digest('hex'),
      );
    const attempts = await t.deps.db
      .selectFrom('webhook_attempts')
      .select(['attempt', 'http_status', 'response_excerpt'])
      .where('delivery', '=', delivery)
      .orderBy('attempt')
      .execute();
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(attempts.every((a) => a.http_status === 500 && a.response_excerpt === 'down')).toBe(true);
    expect((await webhookRow(h.id)).disabled_at).toBeNull(); // 27.6 h of failures is not 5 days
  });

  it('honours Retry-After on 429 (seconds) and 503 (HTTP date)', async () => {
    receiver.respond = (_req, res) => res.writeHead(429, { 'retry-after': '120' }).end();
    const { delivery } = await pending('/busy');
    const start = t.deps.clock.now().getTime();
    await runDue(t.deps);
    expect((await deliveryRow(delivery)).next_attempt_at!.getTime()).toBe(start + 120_000);
    t.clock.set(start + 120_000);
    const when = new Date(Math.floor((start + 120_000) / 1000) * 1000 + 3_600_000);
    receiver.respond = (_req, res) => res.writeHead(503, { 'retry-after': when.toUTCString() }).end();
    await runDue(t.deps);
    expect((await deliveryRow(delivery)).next_attempt_at!.getTime()).toBe(when.getTime());
  });

  it('disables the webhook at once on 410 Gone; later events do not reach it', async () => {
    receiver.respond = (_req, res) => res.writeHead(410).end();
    const { hook: h, delivery, admin } = await pending('/gone');
    const member = await brandUser(t.deps, { brand: admin.brand, acl: ['CRM'] });
    // An admin of the parent brand manages this one's webhooks too (Admin reaches down the tree).
    const parent = await brandUser(t.deps);
    await t.deps.db.updateTable('brands').set({ parent: parent.brand }).where('id', '=', admin.brand).execute();
    await runDue(t.deps);
    expect(await deliveryRow(delivery)).toMatchObject({ status: 'failed', attempts: 1, last_status: 410 });
    const webhook = await webhookRow(h.id);
    expect(webhook.disabled_at).not.toBeNull();
    expect(webhook.disabled_reason).toMatch(/410/);
    // The brand's admins hear of it in the app; members without Admin do not.
    const [notice, ...others] = await feedOf(admin.headers);
    expect(others).toEqual([]);
    expect(notice).toMatchObject({ notification_type: 'WebhookDisabled', subject: h.id });
    expect(notice!.message).toContain('410 Gone');
    expect(await feedOf(parent.headers)).toMatchObject([{ notification_type: 'WebhookDisabled', subject: h.id }]);
    expect(await feedOf(member.headers)).toEqual([]);
    const brand = webhook.brand;
    await t.deps.db
      .transaction()
      .execute((trx) => recordEvent(trx, { brand, topic: 'Deals', event: 'Updated', subject: h.id, payload: {} }));
    await fanOutAll(t.deps);
    expect(await deliveriesOf(h.id)).toHaveLength(1);
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    receiver.respond = (req, res) =>
      req.url === '/moved' ? res.writeHead(307, { location: receiver.url('/target') }).end() : res.writeHead(204).end();
    const { delivery } = await pending('/moved');
    await runDue(t.deps);
    expect(await deliveryRow(delivery)).toMatchObject({ status: 'pending', attempts: 1, last_status: 307 });
    expect(receivedAt('/target')).toEqual([]);
  });

  it('counts a receiver that never answers as a failed attempt (timeout), and a refused address too', async () => {
    receiver.respond = () => undefined;
    const { delivery } = await pending('/silent');
    await runDue(t.deps, { timeoutMs: 200 });
    expect(await deliveryRow(delivery)).toMatchObject({ status: 'pending', attempts: 1, last_status: null });
    expect((await deliveryRow(delivery)).last_error).toMatch(/^timeout/);

    const { hook: h, delivery: second } = await pending('/rebound');
    // the name now points somewhere the guard refuses: checked again at the attempt, nothing is sent
    await t.deps.db.updateTable('brand_webhooks').set({ url: 'http://10.0.0.1/hook' }).where('id', '=', h.id).execute();
    await runDue(t.deps);
    expect((await deliveryRow(second)).last_error).toMatch(/^refused_address.*10\.0\.0\.1: private/);
  });

  it('disables a webhook whose attempts have all failed for 5 days and tells the brand’s admins, once', async () => {
    receiver.respond = (_req, res) => res.writeHead(500).end();
    const { hook: h, delivery, admin } = await pending('/failing');
    await t.deps.db
      .updateTable('brand_webhooks')
      .set({ failing_since: new Date(t.deps.clock.now().getTime() - FAILING_DISABLE_SECONDS * 1000) })
      .where('id', '=', h.id)
      .execute();
    await runDue(t.deps);
    expect(await deliveryRow(delivery)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await webhookRow(h.id)).disabled_reason).toBe('Every attempt failed for 5 days');
    const feed = await feedOf(admin.headers);
    expect(feed).toMatchObject([{ notification_type: 'WebhookDisabled', subject: h.id }]);
    expect(feed[0]!.message).toContain('Every attempt failed for 5 days');
  });

  it('clears the failing streak on success; a repeated job and a deleted webhook send nothing', async () => {
    receiver.respond = (_req, res) => res.writeHead(500).end();
    const { hook: h, delivery } = await pending('/flaky');
    await runDue(t.deps);
    expect((await webhookRow(h.id)).failing_since).not.toBeNull();
    receiver.respond = (_req, res) => res.writeHead(200).end('ok');
    t.clock.set((await deliveryRow(delivery)).next_attempt_at!);
    await runDue(t.deps);
    expect((await webhookRow(h.id)).failing_since).toBeNull();
    const sent = receivedAt('/flaky').length;
    const { attemptDelivery } = await import('./deliveries.service.js');
    await attemptDelivery(t.deps, delivery, 2); // the same job again
    expect(receivedAt('/flaky')).toHaveLength(sent);

    const { hook: gone, delivery: orphan } = await pending('/deleted');
    const brand = (await webhookRow(gone.id)).brand;
    const admin = await brandUser(t.deps, { brand });
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/brands/${brand}/webhooks/${gone.id}`, headers: admin.headers }))
        .statusCode,
    ).toBe(204);
    await runDue(t.deps);
    expect(await deliveryRow(orphan)).toMatchObject({ status: 'dropped', attempts: 0 });
    expect(receivedAt('/deleted')).toEqual([]);
  });

  it('queues retries and a failing receiver’s new deliveries behind healthy receivers’ first attempts', async () => {
    const priorityOf = async (delivery: string, attempt: number) =>
      (
        await sql<{
          priority: number;
        }>`select priority from pgboss.job where name = 'webhooks.deliver' and data->>'delivery' = ${delivery} and (data->>'attempt')::int = ${attempt}`.execute(
          t.deps.db,
        )
      ).rows[0]?.priority;
    receiver.respond = (req, res) => res.writeHead(req.url === '/behind-bad' ? 500 : 204).end();
    const bad = await pending('/behind-bad');
    const good = await pending('/behind-good');
    expect(await priorityOf(bad.delivery, 1)).toBe(0); // not failing yet when it was fanned out
    await runDue(t.deps);
    expect(await priorityOf(bad.delivery, 2)).toBe(BEHIND_PRIORITY);
    expect(await priorityOf(good.delivery, 1)).toBe(0);
    // the next events: the failing webhook's delivery waits behind, the healthy one's does not
    for (const admin of [bad.admin, good.admin]) {
      await t.deps.db.transaction().execute((trx) =>
        recordEvent(trx, {
          brand: admin.brand,
          topic: 'Deals',
          event: 'Updated',
          subject: admin.brand,
          payload: { n: 2 },
        }),
      );
    }
    await fanOutAll(t.deps);
    const [, badNext] = await deliveriesOf(bad.hook.id);
    const [, goodNext] = await deliveriesOf(good.hook.id);
    expect(await priorityOf(badNext!.id, 1)).toBe(BEHIND_PRIORITY);
    expect(await priorityOf(goodNext!.id, 1)).toBe(0);
  });

  it('runs attempts of one turn side by side (one read, one record): each moves its own delivery on, once', async () => {
    const { attemptDelivery } = await import('./deliveries.service.js');
    const a = await pending('/side-a');
    const b = await pending('/side-b');
    // Started in the same turn, as a worker starts its fetched batch: b twice (a repeated job) and a
    // malformed id, which fails its own job only.
    const outcomes = await Promise.allSettled([
      attemptDelivery(t.deps, a.delivery, 1),
      attemptDelivery(t.deps, b.delivery, 1),
      attemptDelivery(t.deps, b.delivery, 1),
      attemptDelivery(t.deps, '-'.repeat(36), 1),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect(await deliveryRow(a.delivery)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(await deliveryRow(b.delivery)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(receivedAt('/side-a')).toHaveLength(1);
    // the repeated job may send a duplicate (same webhook-id), but records one attempt
    expect(receivedAt('/side-b').length).toBeGreaterThanOrEqual(1);
    expect(new Set(receivedAt('/side-b').map((r) => header(r, 'webhook-id')))).toEqual(new Set([b.delivery]));
    const attempts = await t.deps.db
      .selectFrom('webhook_attempts')
      .select(['delivery', 'attempt'])
      .where('delivery', 'in', [a.delivery, b.delivery])
      .execute();
    expect(attempts.map((row) => `${row.delivery === a.delivery ? 'a' : 'b'}${row.attempt}`).sort()).toEqual([
      'a1',
      'b1',
    ]);
  });

  it('jitters within ±10 % and uses Retry-After as given', () => {
    expect(retryDelaySeconds(1, null, () => 0)).toBeCloseTo(4.5);
    expect(retryDelaySeconds(1, null, () => 1)).toBeCloseTo(5.5);
    expect(retryDelaySeconds(7, null, () => 0.5)).toBeCloseTo(36_000);
    expect(retryDelaySeconds(3, 42)).toBe(42);
  });
});
