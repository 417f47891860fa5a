// Test support for the "Ask about this home" form (docs/public-pages.md): a public listing whose listing agent (Dana)
// is a CRM member of an office brand with a palette and a lead channel, so the listing page offers the form.
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../src/platform/deps.js';
import { setOwnPalette } from '../../src/modules/brands/profile.repository.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from './factories.js';
import { clientHeaders, sampleListing } from './listings.js';

export const OFFICE_PALETTE = {
  'body-bg-color': '#ffffff',
  'body-text-color': '#102030',
  'button-bg-color': '#0b5cad',
  'button-text-color': '#ffffff',
  phone_number: '+1 214 555 0100',
};

export interface LeadFormWorld {
  listing: string;
  office: string;
  dana: { id: string; headers: Record<string, string> };
  channel: string;
}

/** The listing `mlsNumber` (AG-1's), Dana (user of agent AG-1) in the office, and the office's lead channel. */
export async function leadFormWorld(
  deps: Deps,
  app: FastifyInstance,
  listingFields: Record<string, unknown> = {},
): Promise<LeadFormWorld> {
  const ingest = await app.inject({
    method: 'POST',
    url: '/mls/NTREIS/listings',
    headers: await clientHeaders(deps),
    payload: [sampleListing('LF-1', { list_office_name: 'Demo Realty Downtown', ...listingFields })],
  });
  expect(ingest.statusCode, ingest.body).toBe(200);
  const listing = (
    await deps.db.selectFrom('listings').select('id').where('mls_number', '=', 'LF-1').executeTakeFirstOrThrow()
  ).id;
  const office = (await createBrand(deps, { name: 'Demo Realty Downtown', brand_type: 'Office' })).id;
  await setOwnPalette(deps.db, office, OFFICE_PALETTE, deps.clock.now());
  const dana = await createUser(deps, { first_name: 'Dana', last_name: 'Reyes' });
  await addMembership(deps, dana.id, office, ['CRM']);
  const agent = await deps.db
    .insertInto('agents')
    .values({ mls: 'NTREIS', mlsid: 'AG-1-ID', mls_unique_id: 'AG-1', full_name: 'Dana Reyes' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await deps.db.insertInto('user_agents').values({ user: dana.id, agent: agent.id }).execute();
  const headers = { ...bearer(await tokenFor(deps, dana.id)), 'x-rechat-brand': office };
  const created = await app.inject({
    method: 'POST',
    url: `/brands/${office}/leads/channels`,
    headers,
    payload: { title: 'Listing pages' },
  });
  expect(created.statusCode, created.body).toBe(200);
  return { listing, office, dana: { id: dana.id, headers }, channel: created.json().data.id };
}

/** The hidden form token of a listing page's "Ask about this home" form. */
export function formTokenOf(pageHtml: string): string {
  const token = /<input type="hidden" name="token" value="([^"]+)">/.exec(pageHtml)?.[1];
  expect(token, 'the page offers the form').toBeTruthy();
  return token!;
}
