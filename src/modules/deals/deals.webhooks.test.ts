// Deals and showings end to end through the webhook engine: changes made over the API reach a loopback receiver,
// signed. A Deals event reaches the brokerage above the office (a brokerage watches its offices' deals); a
// Showings event reaches the office's own webhook only.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { crmUser } from '../../../test/helpers/contacts.js';
import { brandUser, fanOutAll, Receiver, runDue, type Received } from '../../../test/helpers/webhooks.js';

// The real now: the receiver checks each delivery's timestamp against its own clock.
const t = useTestApp({ env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } });
const receiver = new Receiver();
let brokerage: string;
let office: string;
let agent: Awaited<ReturnType<typeof crmUser>>;
let admin: Awaited<ReturnType<typeof brandUser>>;
let listingId: string;

beforeAll(async () => {
  await receiver.start();
  brokerage = (await createBrand(t.deps, { name: 'Brokerage' })).id;
  office = (await createBrand(t.deps, { name: 'Uptown Office', parent: brokerage })).id;
  admin = await brandUser(t.deps, { brand: brokerage, acl: ['Admin'] });
  agent = await crmUser(t.deps, { brand: office, acl: ['CRM', 'Deals'] });
  listingId = (
    await t.deps.db
      .insertInto('listings')
      .values({
        mls: 'NTREIS',
        mls_number: 'WH-1',
        status: 'Active',
        price: 510000,
        full_address: '8 Oak Ct, Dallas, TX 75204',
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => receiver.stop());

async function hook(brand: string, topic: string, path: string): Promise<{ secret: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/brands/${brand}/webhooks`,
    headers: admin.headers,
    payload: { topic, url: receiver.url(path) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { secret: res.json().info.secret };
}

/** The bodies received at `path`, each verified with the Standard Webhooks reference library. */
function bodiesAt(
  path: string,
  secret: string,
): { topic: string; event: string; payload: Record<string, { id: string }> }[] {
  const verifier = new Webhook(secret);
  const header = (r: Received, name: string) => String(r.headers[name]);
  return receiver.received
    .filter((r) => r.url === path)
    .map(
      (r) =>
        verifier.verify(r.body, {
          'webhook-id': header(r, 'webhook-id'),
          'webhook-timestamp': header(r, 'webhook-timestamp'),
          'webhook-signature': header(r, 'webhook-signature'),
        }) as never,
    );
}

async function deliverEverything(): Promise<void> {
  await fanOutAll(t.deps);
  await runDue(t.deps);
}

describe('deal and showing events at the receivers', () => {
  it('delivers an office’s deal changes to the brokerage’s Deals webhook, and its showings only to the office', async () => {
    const brokerageDeals = await hook(brokerage, 'Deals', '/brokerage-deals');
    const brokerageShowings = await hook(brokerage, 'Showings', '/brokerage-showings');
    const officeShowings = await hook(office, 'Showings', '/office-showings');

    const created = await t.app.inject({
      method: 'POST',
      url: '/deals',
      headers: agent.headers,
      payload: { deal_type: 'Selling', property_type: 'Resale', listing: listingId },
    });
    expect(created.statusCode, created.body).toBe(200);
    const deal = created.json().data;
    t.clock.advance(60);
    const closed = await t.app.inject({
      method: 'PATCH',
      url: `/deals/${deal.id}`,
      headers: agent.bare,
      payload: { status: 'Closed' },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/deals/${deal.id}`, headers: agent.bare })).statusCode).toBe(
      204,
    );
    const showing = await t.app.inject({
      method: 'POST',
      url: '/showings',
      headers: agent.headers,
      payload: { listing: listingId, start_time: 1781200000, end_time: 1781201800 },
    });
    expect(showing.statusCode, showing.body).toBe(200);

    await deliverEverything();

    const dealBodies = bodiesAt('/brokerage-deals', brokerageDeals.secret);
    // Deliveries run side by side, so they may arrive in any order: one of each event, no more.
    expect(dealBodies.map((b) => `${b.topic} ${b.event}`).sort()).toEqual([
      'Deals Created',
      'Deals Deleted',
      'Deals Updated',
    ]);
    const dealIn = (event: string) => dealBodies.find((b) => b.event === event)!.payload.deal;
    // The payload is the deal as the API returned it.
    expect(dealIn('Created')).toEqual(deal);
    expect(dealIn('Updated')).toEqual(closed.json().data);
    expect(dealIn('Deleted')!.id).toBe(deal.id);

    expect(bodiesAt('/brokerage-showings', brokerageShowings.secret)).toEqual([]);
    const showingBodies = bodiesAt('/office-showings', officeShowings.secret);
    expect(showingBodies.map((b) => [b.topic, b.event])).toEqual([['Showings', 'showing.created']]);
    expect(showingBodies[0]!.payload.showing).toEqual(showing.json().data);
  });
});
