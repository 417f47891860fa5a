// Deals figures (issue 14): `POST /deals/filter` with a word-prefix query on a brand holding 50,000 deals, p95
// (target ≤ 30 ms). The brand is filled through the deals repository (derived title and search lexemes as
// every write makes them), then analysed as autovacuum would.
import { sql } from 'kysely';
import type { Deps } from '../src/platform/deps.js';
import type { DealFields } from '../src/modules/deals/deals.derive.js';
import { insertDealsBulk } from '../src/modules/deals/deals.repository.js';
import { DEAL_STATUSES } from '../src/modules/deals/deals.schemas.js';
import type { FoundationFixture } from './foundation.bench.js';
import { closedLoop, type LoadResult } from './lib/load.js';

const STREETS = [
  'Elm',
  'Oak',
  'Maple',
  'Cedar',
  'Pine',
  'Birch',
  'Walnut',
  'Willow',
  'Magnolia',
  'Juniper',
  'Aspen',
  'Hickory',
  'Sycamore',
  'Laurel',
  'Cypress',
];
const KINDS = ['Street', 'Avenue', 'Road', 'Lane', 'Drive', 'Court'];
const CITIES = ['Dallas', 'Plano', 'Frisco', 'Irving', 'Garland', 'Denton', 'Allen', 'McKinney'];
const FIRST = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Elijah',
  'Sophia',
  'Mateo',
  'Isabella',
  'Lucas',
  'Mia',
  'Levi',
];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez'];

/** Deal n of a deterministic book: an address, a price, a status, a buyer and a seller. */
function deal(n: number): DealFields {
  const at = (i: number, list: readonly string[]) => list[i % list.length]!;
  return {
    deal_type: n % 2 === 0 ? 'Buying' : 'Selling',
    property_type: 'Resale',
    title_given: null,
    listing: null,
    status: at(n, DEAL_STATUSES),
    context: {
      full_address: `${100 + (n % 9900)} ${at(n, STREETS)} ${at(Math.floor(n / 15), KINDS)}, ${at(Math.floor(n / 7), CITIES)}, TX`,
      list_price: 200_000 + (n % 500) * 1000,
    },
    roles: [
      {
        id: crypto.randomUUID(),
        role: 'Buyer',
        legal_first_name: at(n, FIRST),
        legal_last_name: `${at(Math.floor(n / 12), LAST)}${n % 1000}`,
        email: `buyer${n}@mail.example`,
        phone_number: null,
        contact: null,
        user: null,
        created_at: 0,
      },
      {
        id: crypto.randomUUID(),
        role: 'Seller',
        legal_first_name: at(n + 5, FIRST),
        legal_last_name: at(n + 3, LAST),
        email: `seller${n}@mail.example`,
        phone_number: null,
        contact: null,
        user: null,
        created_at: 0,
      },
    ],
  };
}

export async function benchDeals(
  deps: Deps,
  url: string,
  fixture: FoundationFixture,
  options: { deals: number; requests: number; concurrencies: number[] },
): Promise<{ results: LoadResult[]; notes: string[] }> {
  const headers = { authorization: `Bearer ${fixture.accessToken}`, 'content-type': 'application/json' };
  const brand = (
    await deps.db.selectFrom('memberships').select('brand').where('user', '=', fixture.userId).executeTakeFirstOrThrow()
  ).brand;
  const started = performance.now();
  const base = Date.now() - options.deals * 1000;
  await insertDealsBulk(
    deps.db,
    brand,
    fixture.userId,
    Array.from({ length: options.deals }, (_, n) => ({ fields: deal(n), at: new Date(base + n * 1000) })),
  );
  await sql`analyze deals`.execute(deps.db);
  const notes = [`deals: ${options.deals} deals written in ${((performance.now() - started) / 1000).toFixed(1)} s`];
  const queries = [
    'elm',
    'oak ave',
    'maple dallas',
    'smith',
    'olivia garcia',
    'cedar',
    'frisco',
    '15',
    'willow lane',
    'jones',
  ];
  const bodies = queries.map((query, i) => ({
    brand,
    query,
    ...(i % 3 === 0 ? { status: { is_active: true, is_pending: true } } : {}),
    $order: ['updated_at', 'DESC'],
    start: 0,
    limit: 50,
  }));
  // One request first: a refusal here would make every figure below a figure of 400s.
  const probe = await fetch(`${url}/deals/filter`, { method: 'POST', headers, body: JSON.stringify(bodies[0]) });
  if (!probe.ok) throw new Error(`POST /deals/filter answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`);
  notes.push(
    `deals: "${queries[0]}" matches ${((await probe.json()) as { info: { total: number } }).info.total} of ${options.deals} (active or pending)`,
  );
  const results: LoadResult[] = [];
  for (const concurrency of options.concurrencies) {
    results.push(
      await closedLoop(
        `POST /deals/filter {query} (${options.deals} in the brand) [c=${concurrency}]`,
        url,
        (i) => ({ method: 'POST', path: '/deals/filter', headers, body: bodies[i % bodies.length] }),
        {
          concurrency,
          requests: options.requests,
        },
      ),
    );
  }
  return { results, notes };
}
