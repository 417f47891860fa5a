// Test support: listings written straight into the listings table, each test under its own agent tag so tests
// sharing one database never see each other's rows (the tag is also the search's anchor).
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Deps } from '../../src/platform/deps.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from './factories.js';
import type { ListingFixture } from '../../src/modules/listings/search/listing-fixture.test-support.js';

export type { ListingFixture };

const DEFAULT_AT: [number, number] = [-96.8, 32.8];

export const newTag = () => `T${randomBytes(4).toString('hex')}`;

/** Inserts listings whose list agent is `tag`; returns name by id. */
export async function insertListings(deps: Deps, tag: string, rows: ListingFixture[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const { name, at, content, address, ...columns } of rows) {
    const [x, y] = at ?? DEFAULT_AT;
    const agentSlots = [
      'list_agent_mui',
      'co_list_agent_mui',
      'co_list_agent2_mui',
      'co_list_agent3_mui',
      'selling_agent_mui',
      'co_selling_agent_mui',
      'co_selling_agent2_mui',
      'co_selling_agent3_mui',
    ];
    const officeSlots = [
      'list_office_mls_id',
      'co_list_office_mls_id',
      'selling_office_mls_id',
      'co_selling_office_mls_id',
    ];
    const values: Record<string, unknown> = {
      mls: 'TEST',
      mls_number: `${tag}-${name}`,
      status: 'Active',
      price: 300_000,
      currency: 'USD',
      list_agent_mui: tag,
      ...columns,
    };
    values.agent_muis = agentSlots.map((slot) => values[slot]).filter((v) => typeof v === 'string');
    values.office_mls_ids = officeSlots.map((slot) => values[slot]).filter((v) => typeof v === 'string');
    const covered = values.parking_spaces_covered_total as number | undefined;
    const uncovered = values.parking_spaces_uncovered_total as number | undefined;
    if (covered !== undefined || uncovered !== undefined)
      values.parking_spaces_total = (covered ?? 0) + (uncovered ?? 0);
    values.location = sql`point(${x}::float8, ${y}::float8)`;
    values.content_tsv = sql`to_tsvector('english', ${content ?? ''})`;
    values.address_tsv = sql`to_tsvector('english', ${address ?? ''})`;
    values.search_tsv = sql`to_tsvector('english', ${`${address ?? ''} ${content ?? ''}`})`;
    const row = await deps.db
      .insertInto('listings')
      .values(values as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    names.set(row.id, name);
  }
  return names;
}

/** A user who is a member of a fresh brand, with a token. */
export async function memberOfNewBrand(deps: Deps) {
  const brand = await createBrand(deps);
  const user = await createUser(deps);
  await addMembership(deps, user.id, brand.id);
  const token = await tokenFor(deps, user.id);
  return { brand: brand.id, user: user.id, headers: bearer(token) };
}

/** Links an agent with this mls_unique_id to the user (user_agents). */
export async function linkAgent(deps: Deps, user: string, mui: string): Promise<void> {
  const agent = await deps.db
    .insertInto('agents')
    .values({ mls: 'TEST', mlsid: `id-${mui}-${randomBytes(2).toString('hex')}`, mls_unique_id: mui } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await deps.db.insertInto('user_agents').values({ user, agent: agent.id }).execute();
}
