// Brand webhook endpoints (spec §4.7, decisions §9, §13): the key shown once, Admin only, URL rules and the
// SSRF guard at create time, Activities deprecated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { brandUser, Receiver } from '../../../test/helpers/webhooks.js';

const t = useTestApp({ env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } });
const receiver = new Receiver();
let admin: Awaited<ReturnType<typeof brandUser>>;

beforeAll(async () => {
  await receiver.start();
  admin = await brandUser(t.deps);
});
afterAll(() => receiver.stop());

const create = (brand: string, headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'POST', url: `/brands/${brand}/webhooks`, headers, payload: payload as object });
const count = async () =>
  Number(
    (
      await t.deps.db
        .selectFrom('brand_webhooks')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('creating a webhook', () => {
  it('returns the record and the key once, stores the key encrypted and never shows it again', async () => {
    const res = await create(admin.brand, admin.headers, { topic: 'Contacts', url: receiver.url() });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data).toMatchObject({
      brand: admin.brand,
      topic: 'Contacts',
      url: receiver.url(),
      tags: null,
      deleted_at: null,
      disabled_at: null,
      type: 'brand_webhook',
    });
    expect(typeof body.data.created_at).toBe('number');
    expect(body.info.key).toMatch(/^[0-9a-f]{64}$/);
    expect(body.info.secret).toBe(`whsec_${Buffer.from(body.info.key, 'hex').toString('base64')}`);
    expect(res.headers.deprecation).toBeUndefined();
    const row = await t.deps.db
      .selectFrom('brand_webhooks')
      .selectAll()
      .where('id', '=', body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.key_sealed).not.toContain(body.info.key);
    expect(t.deps.secrets.decrypt(row.key_sealed)).toBe(body.info.key);
    const read = await t.app.inject({ url: `/brands/${admin.brand}/webhooks/${body.data.id}`, headers: admin.headers });
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toContain(body.info.key);
    expect(read.json().data).toEqual(body.data);
    const list = await t.app.inject({ url: `/brands/${admin.brand}/webhooks`, headers: admin.headers });
    expect(list.body).not.toContain(body.info.key);
  });

  it('marks the Activities topic deprecated when creating and listing it', async () => {
    const own = await brandUser(t.deps);
    const res = await create(own.brand, own.headers, { topic: 'Activities', url: receiver.url() });
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
    const filtered = await t.app.inject({
      url: `/brands/${own.brand}/webhooks?topic=Activities`,
      headers: own.headers,
    });
    expect(filtered.headers.deprecation).toMatch(/^@\d+$/);
    await create(own.brand, own.headers, { topic: 'Deals', url: receiver.url() });
    const deals = await t.app.inject({ url: `/brands/${own.brand}/webhooks?topic=Deals`, headers: own.headers });
    expect(deals.headers.deprecation).toBeUndefined();
    expect(deals.json().info).toEqual({ count: 1, total: 1 });
    expect(await t.deps.metrics.registry.getSingleMetricAsString('gable_deprecated_requests_total')).toContain(
      'topic=Activities',
    );
  });

  it.each([
    [{ topic: 'Listings', url: 'https://hooks.example.com/' }, 'topic'],
    [{ url: 'https://hooks.example.com/' }, 'topic'],
    [{ topic: 'Contacts' }, 'url'],
    [{ topic: 'Contacts', url: 'ftp://93.184.216.34/x' }, 'http or https'],
    [{ topic: 'Contacts', url: 'javascript:alert(1)' }, 'http or https'],
    [{ topic: 'Contacts', url: 'https://user:secret@93.184.216.34/' }, 'credentials'],
    [{ topic: 'Contacts', url: 'not a url' }, 'absolute URL'],
    [{ topic: 'Contacts', url: `https://93.184.216.34/${'a'.repeat(2030)}` }, 'url'],
    [{ topic: 'Contacts', url: 'http://10.0.0.7/hook' }, 'private'],
    [{ topic: 'Contacts', url: 'http://169.254.169.254/latest/meta-data' }, 'linkLocal'],
    [{ topic: 'Contacts', url: 'http://127.2:8080/' }, '127.0.0.2: loopback'],
    [{ topic: 'Contacts', url: 'http://[::ffff:127.0.0.2]/' }, 'loopback'],
    [{ topic: 'Contacts', url: 'http://0x7f000002/' }, 'loopback'],
  ])('refuses %j with a 400 naming %s, writing nothing', async (payload, words) => {
    const before = await count();
    const res = await create(admin.brand, admin.headers, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ http: 400, code: 'Validation' });
    expect(res.json().message).toContain(words);
    expect(await count()).toBe(before);
  });

  // Issue 34 row 11: the record says the address the deliveries call, not the form it was typed in.
  it.each([
    ['http://１２７.０.０.１:3542/a', 'http://127.0.0.1:3542/a'],
    ['http://0x7f000001/', 'http://127.0.0.1/'],
    ['HTTP://127.1:80/Hook?x=1', 'http://127.0.0.1/Hook?x=1'],
  ])('stores and shows %s in the canonical form the delivery calls (%s)', async (typed, canonical) => {
    const res = await create(admin.brand, admin.headers, { topic: 'Deals', url: typed });
    expect(res.statusCode, res.body).toBe(200);
    const { id, url } = res.json().data;
    expect(url).toBe(canonical);
    const read = await t.app.inject({ url: `/brands/${admin.brand}/webhooks/${id}`, headers: admin.headers });
    expect(read.json().data.url).toBe(canonical);
    const list = await t.app.inject({ url: `/brands/${admin.brand}/webhooks?limit=1000`, headers: admin.headers });
    expect(list.json().data.find((w: { id: string }) => w.id === id).url).toBe(canonical);
    const row = await t.deps.db
      .selectFrom('brand_webhooks')
      .select('url')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.url).toBe(canonical);
  });

  it('judges the canonical form: full-width digits of a refused address are refused', async () => {
    const res = await create(admin.brand, admin.headers, { topic: 'Contacts', url: 'http://１２７.０.０.２/' });
    expect(res.statusCode).toBe(400);
    expect(res.json().attributes.url[0]).toMatch(/refused address \(127\.0\.0\.2: loopback\)/);
  });

  it('refuses 127.0.0.2 although 127.0.0.1 is allowed (the allow-list is exact)', async () => {
    const res = await create(admin.brand, admin.headers, { topic: 'Contacts', url: 'http://127.0.0.2/' });
    expect(res.statusCode).toBe(400);
    expect(res.json().attributes.url[0]).toMatch(/refused address \(127\.0\.0\.2: loopback\)/);
  });
});

describe('access', () => {
  it('needs Admin on the brand (403), and keeps other brands’ webhooks out of reach (404)', async () => {
    const crm = await brandUser(t.deps, { brand: admin.brand, acl: ['CRM', 'Marketing', 'Deals'] });
    expect((await create(admin.brand, crm.headers, { topic: 'Contacts', url: receiver.url() })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/brands/${admin.brand}/webhooks`, headers: crm.headers })).statusCode).toBe(403);
    const mine = (await create(admin.brand, admin.headers, { topic: 'Deals', url: receiver.url() })).json().data
      .id as string;
    expect(
      (await t.app.inject({ url: `/brands/${admin.brand}/webhooks/${mine}`, headers: crm.headers })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/brands/${admin.brand}/webhooks/${mine}`, headers: crm.headers }))
        .statusCode,
    ).toBe(403);

    const other = await brandUser(t.deps);
    // their own brand path with my webhook id: 404; my brand path: 403
    expect(
      (await t.app.inject({ url: `/brands/${other.brand}/webhooks/${mine}`, headers: other.headers })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/brands/${other.brand}/webhooks/${mine}`, headers: other.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: `/brands/${admin.brand}/webhooks/${mine}`, headers: other.headers })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ url: `/brands/${admin.brand}/webhooks/${mine}`, headers: admin.headers })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: `/brands/${admin.brand}/webhooks/${mine}` })).statusCode).toBe(401);
  });

  it('an admin of the parent brand manages the office’s webhooks', async () => {
    const office = (await createBrand(t.deps, { parent: admin.brand })).id;
    const res = await create(office, admin.headers, { topic: 'Showings', url: receiver.url() });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.brand).toBe(office);
  });
});

describe('listing and deleting', () => {
  it('lists live webhooks with count/total and a topic filter; delete answers 204 and hides it', async () => {
    const own = await brandUser(t.deps);
    const ids: string[] = [];
    for (const topic of ['Contacts', 'Deals', 'Contacts']) {
      t.clock.advance(1);
      ids.push((await create(own.brand, own.headers, { topic, url: receiver.url() })).json().data.id);
    }
    const all = await t.app.inject({ url: `/brands/${own.brand}/webhooks`, headers: own.headers });
    expect(all.json().info).toEqual({ count: 3, total: 3 });
    expect(all.json().data.map((w: { id: string }) => w.id)).toEqual(ids);
    const page = await t.app.inject({
      url: `/brands/${own.brand}/webhooks?topic=Contacts&limit=1`,
      headers: own.headers,
    });
    expect(page.json().info).toEqual({ count: 1, total: 2 });
    expect(
      (await t.app.inject({ url: `/brands/${own.brand}/webhooks?topic=Nope`, headers: own.headers })).statusCode,
    ).toBe(400);

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/brands/${own.brand}/webhooks/${ids[0]}`,
      headers: own.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect(
      (await t.app.inject({ url: `/brands/${own.brand}/webhooks/${ids[0]}`, headers: own.headers })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/brands/${own.brand}/webhooks/${ids[0]}`, headers: own.headers }))
        .statusCode,
    ).toBe(404);
    const after = await t.app.inject({ url: `/brands/${own.brand}/webhooks`, headers: own.headers });
    expect(after.json().info).toEqual({ count: 2, total: 2 });
  });
});
