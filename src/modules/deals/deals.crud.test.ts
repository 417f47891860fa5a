// Deals: create/read/update/delete, the context catalogue, roles, the listing fill, the derived title, the
// home-anniversary link, access across brands and ACLs, and the Deals event of each change.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { crmUser, outboxRows } from '../../../test/helpers/contacts.js';

const t = useTestApp({ now: new Date('2026-06-01T12:00:00Z') });
let agent: Awaited<ReturnType<typeof crmUser>>;
let listingId: string;
const LISTING = {
  mls: 'NTREIS',
  mls_number: 'DL-1001',
  status: 'Active',
  price: 425000,
  full_address: '123 Main St, Dallas, TX 75201',
};

beforeAll(async () => {
  agent = await crmUser(t.deps, { acl: ['CRM', 'Deals'] });
  listingId = (
    await t.deps.db
      .insertInto('listings')
      .values(LISTING as never)
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

const create = (payload: object, headers: Record<string, string> = agent.headers) =>
  t.app.inject({ method: 'POST', url: '/deals', headers, payload });
const patch = (id: string, payload: object, headers: Record<string, string> = agent.bare) =>
  t.app.inject({ method: 'PATCH', url: `/deals/${id}`, headers, payload });
const get = (id: string, headers: Record<string, string> = agent.bare, query = '') =>
  t.app.inject({ method: 'GET', url: `/deals/${id}${query}`, headers });
async function newContact(payload: object, headers = agent.headers) {
  const res = await t.app.inject({ method: 'POST', url: '/contacts', headers, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string };
}
const dealCount = async () =>
  Number(
    (
      await t.deps.db
        .selectFrom('deals')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('create and read', () => {
  it('fills the context from the listing, derives the title and records Created', async () => {
    const buyer = await newContact({ first_name: 'Ada', last_name: 'Lovelace', emails: ['ada@example.com'] });
    const res = await create({
      deal_type: 'Buying',
      property_type: 'Resale',
      listing: listingId,
      context: { contract_date: '2026-05-20' },
      roles: [{ role: 'Buyer', contact: buyer.id }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const deal = res.json().data;
    expect(deal).toMatchObject({
      type: 'deal',
      brand: agent.brand,
      deal_type: 'Buying',
      property_type: 'Resale',
      title: '123 Main St, Dallas, TX 75201',
      listing: listingId,
      status: 'Active',
      is_active: true,
      is_closed: false,
      created_by: agent.user,
      context: {
        full_address: '123 Main St, Dallas, TX 75201',
        list_price: 425000,
        mls_number: 'DL-1001',
        contract_date: '2026-05-20',
      },
    });
    expect(deal.roles).toEqual([
      expect.objectContaining({
        type: 'deal_role',
        role: 'Buyer',
        legal_first_name: 'Ada',
        legal_last_name: 'Lovelace',
        email: 'ada@example.com',
        contact: buyer.id,
      }),
    ]);
    const events = (await outboxRows(t.deps, agent.brand)).filter((e) => e.topic === 'Deals');
    expect(events.at(-1)).toMatchObject({
      event: 'Created',
      subject: deal.id,
      payload: { deal: { id: deal.id, title: deal.title } },
    });

    const read = await get(
      deal.id,
      agent.bare,
      '?associations[]=deal.brand&associations[]=deal.listing&associations[]=deal.created_by',
    );
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data).toMatchObject({
      brand: { id: agent.brand, type: 'brand' },
      listing: { id: listingId, type: 'listing', mls_number: 'DL-1001', price: 425000 },
      created_by: { id: agent.user, type: 'user' },
    });
  });

  it('carries deleted_at (spec §1 convention 6): null on every answer, the time in the Deleted event', async () => {
    const created = await create({ deal_type: 'Selling', property_type: 'Resale', listing: listingId });
    expect(created.statusCode, created.body).toBe(200);
    const deal = created.json().data;
    expect(deal).toHaveProperty('deleted_at', null);
    expect((await get(deal.id)).json().data).toHaveProperty('deleted_at', null);
    const listed = await t.app.inject({ method: 'POST', url: '/deals/filter', headers: agent.headers, payload: {} });
    expect(listed.json().data.find((d: { id: string }) => d.id === deal.id)).toHaveProperty('deleted_at', null);

    t.clock.advance(60);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/deals/${deal.id}`, headers: agent.bare });
    expect(deleted.statusCode).toBe(204);
    const events = (await outboxRows(t.deps, agent.brand)).filter((e) => e.topic === 'Deals' && e.subject === deal.id);
    expect(events.at(-1)).toMatchObject({
      event: 'Deleted',
      payload: { deal: { id: deal.id, deleted_at: t.clock.now().getTime() / 1000 } },
    });
  });

  it('keeps the derived title in step with the address, and a given title until it is cleared', async () => {
    const deal = (
      await create({
        deal_type: 'Selling',
        property_type: 'Resale',
        context: { street_address: '9 Elm St', city: 'Austin', state: 'TX' },
      })
    ).json().data;
    expect(deal.title).toBe('9 Elm St, Austin, TX');
    expect((await patch(deal.id, { context: { full_address: '10 Oak Ave, Austin, TX' } })).json().data.title).toBe(
      '10 Oak Ave, Austin, TX',
    );
    expect((await patch(deal.id, { title: 'The Oak deal' })).json().data.title).toBe('The Oak deal');
    expect((await patch(deal.id, { context: { full_address: null }, title: null })).json().data.title).toBe(
      '9 Elm St, Austin, TX',
    );
    const bare = (await create({ deal_type: 'Selling', property_type: 'Lot' })).json().data;
    expect(bare.title).toBe('Selling deal');
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const before = await dealCount();
    const cases: [object, string][] = [
      [{ deal_type: 'Buying', property_type: 'Resale', context: { colour: 'red' } }, 'context.colour'],
      [{ deal_type: 'Buying', property_type: 'Resale', context: { list_price: '500000' } }, 'context.list_price'],
      [
        { deal_type: 'Buying', property_type: 'Resale', context: { closing_date: '2026-02-30' } },
        'context.closing_date',
      ],
      [
        {
          deal_type: 'Buying',
          property_type: 'Resale',
          context: { contract_date: '2026-05-20', closing_date: '2026-05-01' },
        },
        'context.closing_date',
      ],
      [
        { deal_type: 'Buying', property_type: 'Resale', roles: [{ role: 'Lender', email: 'l@example.com' }] },
        'roles.0.legal_first_name',
      ],
      [
        { deal_type: 'Buying', property_type: 'Resale', roles: [{ role: 'Lender', legal_first_name: 'Lee' }] },
        'roles.0.email',
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await create(payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().attributes, JSON.stringify(payload)).toHaveProperty([field]);
    }
    for (const payload of [
      { deal_type: 'Renting', property_type: 'Resale' },
      { deal_type: 'Buying', property_type: 'Resale', status: 'Sleeping' },
      {
        deal_type: 'Buying',
        property_type: 'Resale',
        roles: [{ role: 'Wizard', legal_first_name: 'X', email: 'x@example.com' }],
      },
    ]) {
      expect((await create(payload)).statusCode).toBe(400);
    }
    expect(
      (await create({ deal_type: 'Buying', property_type: 'Resale', listing: '00000000-0000-4000-8000-00000000dead' }))
        .statusCode,
    ).toBe(404);
    const foreign = await crmUser(t.deps, { acl: ['CRM', 'Deals'] });
    const theirs = await newContact({ first_name: 'Theirs', emails: ['t@example.com'] }, foreign.headers);
    expect(
      (await create({ deal_type: 'Buying', property_type: 'Resale', roles: [{ role: 'Buyer', contact: theirs.id }] }))
        .statusCode,
    ).toBe(404);
    const stranger = await crmUser(t.deps);
    expect(
      (
        await create({
          deal_type: 'Buying',
          property_type: 'Resale',
          roles: [{ role: 'BuyerAgent', user: stranger.user }],
        })
      ).statusCode,
    ).toBe(404);
    expect(await dealCount()).toBe(before);
  });
});

describe('roles, closing and deleting', () => {
  it('closing a Buying deal dates each Buyer contact’s home anniversary, with the Contacts event', async () => {
    const buyer = await newContact({ first_name: 'Grace', last_name: 'Hopper', emails: ['grace@example.com'] });
    const seller = await newContact({ first_name: 'Sam', last_name: 'Seller', emails: ['sam@example.com'] });
    const deal = (
      await create({
        deal_type: 'Buying',
        property_type: 'Resale',
        listing: listingId,
        context: { closing_date: '2026-07-15' },
      })
    ).json().data;
    const added = await t.app.inject({
      method: 'POST',
      url: `/deals/${deal.id}/roles`,
      headers: agent.bare,
      payload: {
        roles: [
          { role: 'Buyer', contact: buyer.id },
          { role: 'Seller', contact: seller.id },
          { role: 'Lender', legal_last_name: 'Bank', email: 'loans@bank.example' },
        ],
      },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().data.roles.map((r: { role: string }) => r.role)).toEqual(['Buyer', 'Seller', 'Lender']);

    expect((await patch(deal.id, { status: 'Pending' })).json().data.is_pending).toBe(true);
    const closed = await patch(deal.id, { status: 'Closed' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data.is_closed).toBe(true);
    expect(
      (await t.app.inject({ method: 'GET', url: `/contacts/${buyer.id}`, headers: agent.bare })).json().data
        .home_anniversary,
    ).toBe('2026-07-15');
    expect(
      (await t.app.inject({ method: 'GET', url: `/contacts/${seller.id}`, headers: agent.bare })).json().data
        .home_anniversary,
    ).toBeNull();
    const contactEvents = (await outboxRows(t.deps, agent.brand)).filter(
      (e) => e.topic === 'Contacts' && e.subject === buyer.id,
    );
    expect(contactEvents.at(-1)).toMatchObject({
      event: 'update',
      payload: { contact: { home_anniversary: '2026-07-15' } },
    });

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/deals/${deal.id}/roles/Lender`,
      headers: agent.bare,
    });
    expect(removed.statusCode).toBe(204);
    const roleId = (await get(deal.id)).json().data.roles[0].id;
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/deals/${deal.id}/roles/${roleId}`, headers: agent.bare }))
        .statusCode,
    ).toBe(204);
    expect((await get(deal.id)).json().data.roles.map((r: { role: string }) => r.role)).toEqual(['Seller']);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/deals/${deal.id}/roles/Lender`, headers: agent.bare })).statusCode,
    ).toBe(404);

    expect((await t.app.inject({ method: 'DELETE', url: `/deals/${deal.id}`, headers: agent.bare })).statusCode).toBe(
      204,
    );
    expect((await get(deal.id)).statusCode).toBe(404);
    const events = (await outboxRows(t.deps, agent.brand))
      .filter((e) => e.topic === 'Deals' && e.subject === deal.id)
      .map((e) => e.event);
    expect(events).toEqual(['Created', 'Updated', 'Updated', 'Updated', 'Updated', 'Updated', 'Deleted']);
  });
});

describe('access', () => {
  it('needs the Deals ACL; another brand’s deal is 404; a parent brand’s member reaches it', async () => {
    const deal = (await create({ deal_type: 'Selling', property_type: 'Resale' })).json().data;
    const crmOnly = await crmUser(t.deps, { brand: agent.brand, acl: ['CRM'] });
    expect((await create({ deal_type: 'Selling', property_type: 'Resale' }, crmOnly.headers)).statusCode).toBe(403);
    expect((await get(deal.id, crmOnly.bare)).statusCode).toBe(404);
    const other = await crmUser(t.deps, { acl: ['Deals'] });
    expect((await get(deal.id, other.bare)).statusCode).toBe(404);
    expect((await patch(deal.id, { status: 'Closed' }, other.bare)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/deals/${deal.id}`, headers: other.bare })).statusCode).toBe(
      404,
    );
    expect((await get(deal.id)).json().data.status).toBe('Active');

    const parent = await createBrand(t.deps, { name: 'Brokerage' });
    const office = await createBrand(t.deps, { name: 'Office', parent: parent.id });
    const broker = await crmUser(t.deps, { brand: parent.id, acl: ['Deals'] });
    const officeAgent = await crmUser(t.deps, { brand: office.id, acl: ['Deals'] });
    const officeDeal = (await create({ deal_type: 'Buying', property_type: 'Resale' }, officeAgent.headers)).json()
      .data;
    expect((await get(officeDeal.id, broker.bare)).statusCode).toBe(200);
    const brokerDeal = (await create({ deal_type: 'Buying', property_type: 'Resale' }, broker.headers)).json().data;
    expect((await get(brokerDeal.id, officeAgent.bare)).statusCode).toBe(404);
  });
});
