// Test support for the saved-search and alert tests: the square around Dallas that sampleListing's homes fall in,
// and the steps most of them take through the API — a contact, a saved search, listings ingested and matched.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Deps } from '../../src/platform/deps.js';
import { runQueuedJobs } from './jobs.js';

/** A closed ring around central Dallas; sampleListing's homes lie inside it. */
export const AROUND_DALLAS = [
  { longitude: -96.9, latitude: 32.7 },
  { longitude: -96.7, latitude: 32.7 },
  { longitude: -96.7, latitude: 32.9 },
  { longitude: -96.9, latitude: 32.9 },
  { longitude: -96.9, latitude: 32.7 },
];

/** The tasks that turn an ingested listing into an alert: matching, then delivery. */
export const MATCH_AND_DELIVER = ['saved-searches.match', 'saved-searches.deliver'];

/** The owner's headers: `headers` send the brand (contacts), `bare` do not (brand-scoped routes). */
interface Owner {
  brand: string;
  headers: Record<string, string>;
  bare: Record<string, string>;
}

/** A contact of the owner's brand named `firstName`, with the address `<first name>@example.com`; its id. */
export async function createContact(app: FastifyInstance, owner: Owner, firstName: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/contacts',
    headers: owner.headers,
    payload: { first_name: firstName, emails: [`${firstName.toLowerCase()}@example.com`] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

/** A saved search of the owner's brand around Dallas (unless `payload` names its own points); its id. */
export async function saveSearch(app: FastifyInstance, owner: Owner, payload: object): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/brands/${owner.brand}/saved-searches`,
    headers: owner.bare,
    payload: { points: AROUND_DALLAS, ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

/** Ingests `records` into `mls` with the feed's headers, then runs `tasks` as a worker would. */
export async function ingestAndRun(
  app: FastifyInstance,
  deps: Deps,
  feed: { mls: string; headers: Record<string, string> },
  records: unknown[],
  tasks: string[] = MATCH_AND_DELIVER,
): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: `/mls/${feed.mls}/listings`,
    headers: feed.headers,
    payload: records,
  });
  expect(res.statusCode, res.body).toBe(200);
  await runQueuedJobs(deps, tasks);
}
