// Who sees which contacts (decisions §2): the CRM ACL, brands across the hierarchy, brand context.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createBrand, tokenFor } from '../../../test/helpers/factories.js';
import { crmUser } from '../../../test/helpers/contacts.js';

const t = useTestApp();
let brokerage: string;
let officeA: string;
let officeB: string;
let admin: Awaited<ReturnType<typeof crmUser>>;
let agentA: Awaited<ReturnType<typeof crmUser>>;
let agentB: Awaited<ReturnType<typeof crmUser>>;
let contactA: string;

beforeAll(async () => {
  brokerage = (await createBrand(t.deps, { brand_type: 'Brokerage' })).id;
  officeA = (await createBrand(t.deps, { parent: brokerage, brand_type: 'Office' })).id;
  officeB = (await createBrand(t.deps, { parent: brokerage, brand_type: 'Office' })).id;
  admin = await crmUser(t.deps, { brand: brokerage, acl: ['Admin', 'CRM'] });
  agentA = await crmUser(t.deps, { brand: officeA });
  agentB = await crmUser(t.deps, { brand: officeB });
  const res = await t.app.inject({
    method: 'POST',
    url: '/contacts',
    headers: agentA.headers,
    payload: { first_name: 'Office A client' },
  });
  expect(res.statusCode, res.body).toBe(200);
  contactA = res.json().data.id;
});

const get = (id: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/contacts/${id}`, headers });

describe('hierarchy', () => {
  it('an office user cannot see, change or delete the sibling office’s contact (404)', async () => {
    expect((await get(contactA, agentB.bare)).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/contacts/${contactA}`,
          headers: agentB.bare,
          payload: { first_name: 'x' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/contacts/${contactA}`, headers: agentB.bare })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/contacts', headers: agentB.bare, payload: { ids: [contactA] } }))
        .statusCode,
    ).toBe(404);
    const list = await t.app.inject({ method: 'GET', url: '/contacts', headers: agentB.headers });
    expect(list.json().info.total).toBe(0);
    expect((await get(contactA, agentA.bare)).statusCode).toBe(200);
  });

  it('the brokerage admin reaches the office’s contact, and lists it with the office as brand context', async () => {
    expect((await get(contactA, admin.bare)).statusCode).toBe(200);
    const list = await t.app.inject({
      method: 'GET',
      url: '/contacts',
      headers: { ...admin.bare, 'x-rechat-brand': officeA },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((c: { id: string }) => c.id)).toEqual([contactA]);
  });

  it('an office user cannot act in the sibling office (403)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...agentA.bare, 'x-rechat-brand': officeB },
      payload: { first_name: 'Sneaky' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('ACL and brand context', () => {
  it('a member without CRM gets 403 on brand routes and 404 on records', async () => {
    const marketer = await crmUser(t.deps, { brand: officeA, acl: ['Marketing'] });
    expect((await t.app.inject({ method: 'GET', url: '/contacts', headers: marketer.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/contacts/tags', headers: marketer.headers })).statusCode).toBe(
      403,
    );
    const created = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: marketer.headers,
      payload: { first_name: 'No' },
    });
    expect(created.statusCode).toBe(403);
    expect(created.json().code).toBe('AccessForbidden');
    expect((await get(contactA, marketer.bare)).statusCode).toBe(404);
  });

  it('without X-RECHAT-BRAND the active brand (else the newest membership) is used', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/contacts', headers: agentA.bare });
    expect(res.json().data.map((c: { id: string }) => c.id)).toEqual([contactA]);
  });

  it('a malformed brand header is 400, an unknown brand 403, no token 401', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/contacts', headers: { ...agentA.bare, 'x-rechat-brand': 'nope' } }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/contacts',
          headers: { ...agentA.bare, 'x-rechat-brand': '6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e' },
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/contacts' })).statusCode).toBe(401);
  });

  it('a partner token bound to office B cannot reach office A’s contact', async () => {
    const token = await tokenFor(t.deps, admin.user, { brand: officeB });
    expect((await get(contactA, bearer(token))).statusCode).toBe(404);
  });
});

describe('GET /contacts/:id reads the token and the contact together', () => {
  it('checks the token as every route does, before the contact it read', async () => {
    expect((await get(contactA, agentA.bare)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/contacts/${contactA}` })).statusCode).toBe(401);
    expect((await get(contactA, bearer('not-a-token'))).statusCode).toBe(401);
    const token = await tokenFor(t.deps, agentA.user);
    expect((await get(contactA, bearer(token))).statusCode).toBe(200);
    await t.deps.db
      .updateTable('token_families')
      .set({ revoked_at: new Date() })
      .where('user', '=', agentA.user)
      .execute();
    expect((await get(contactA, bearer(token))).statusCode).toBe(401);
    expect((await get('not-a-uuid', bearer(token))).statusCode).toBe(401);
  });

  it('answers the same record as the list, and 404 once the contact is deleted', async () => {
    const agent = await crmUser(t.deps, { brand: officeA });
    const listed = (await t.app.inject({ method: 'GET', url: '/contacts?q=office', headers: agent.headers })).json()
      .data[0];
    const one = await get(contactA, agent.bare);
    expect(one.json().data).toEqual(listed);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/contacts/${contactA}`, headers: agent.bare })).statusCode,
    ).toBe(204);
    expect((await get(contactA, agent.bare)).statusCode).toBe(404);
    expect((await get(contactA, admin.bare)).statusCode).toBe(404);
  });
});
