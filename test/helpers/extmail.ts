// Test kit of external mail: the loopback Microsoft fake wired into a test app, a member of a brand, and the
// whole browser flow (link → the fake's authorize → our callback) driven over real HTTP.
import { afterAll, beforeAll, expect } from 'vitest';
import type { Deps } from '../../src/platform/deps.js';
import type { TestApp } from './app.js';
import { addMembership, bearer, createBrand, createClient, createUser, tokenFor } from './factories.js';
import { FakeMicrosoft } from '../fakes/microsoft.js';

export const CALLBACK = 'http://gable.test/extmail/callback';

/** A fake started before the app is built (register this before useTestApp). */
let current: FakeMicrosoft | undefined;

export function useFakeMicrosoft(): FakeMicrosoft {
  const fake = new FakeMicrosoft({ redirectUris: [CALLBACK] });
  current = fake;
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  return fake;
}

/** The fake's settings as test-app env, read when the app is built (after the fake has its port). */
export function fakeEnv(fake: FakeMicrosoft): Record<string, string> {
  const env = {};
  for (const key of [
    'MICROSOFT_CLIENT_ID',
    'MICROSOFT_CLIENT_SECRET',
    'MICROSOFT_LOGIN_URL',
    'MICROSOFT_GRAPH_URL',
    'WEBHOOK_ALLOWED_NETWORKS',
  ]) {
    Object.defineProperty(env, key, { enumerable: true, get: () => fake.env()[key] });
  }
  return env as Record<string, string>;
}

export async function mailboxOwner(
  deps: Deps,
  options: { brand?: string; acl?: string[]; redirectUris?: string[] } = {},
) {
  const brand = options.brand ?? (await createBrand(deps)).id;
  const user = await createUser(deps);
  await addMembership(deps, user.id, brand, options.acl ?? ['CRM', 'Marketing']);
  const client = await createClient(deps, 'partner', {
    redirect_uris: options.redirectUris ?? ['https://partner.example/after-link'],
  });
  const token = await tokenFor(deps, user.id, { client: client.id });
  return { brand, user: user.id, client: client.id, headers: { ...bearer(token), 'x-rechat-brand': brand } };
}

export type Owner = Awaited<ReturnType<typeof mailboxOwner>>;

export async function startLink(t: TestApp, owner: Owner, payload: Record<string, unknown> = {}) {
  return t.app.inject({ method: 'POST', url: '/users/self/extmail', headers: owner.headers, payload });
}

/** The browser at the provider: follows the authorize URL to the 302 back to our callback; answers its path. */
export async function authorizeAtProvider(url: string): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status, await response.clone().text()).toBe(302);
  const location = new URL(response.headers.get('location')!);
  expect(location.origin + location.pathname).toBe(CALLBACK);
  return location.pathname + location.search;
}

export async function callback(t: TestApp, path: string) {
  return t.app.inject({ method: 'GET', url: path });
}

/** The whole flow, signing in as the fake's current account; answers the callback response and the stored credential row. */
export async function linkMailbox(
  t: TestApp,
  owner: Owner,
  payload: Record<string, unknown> = { body: ['Contacts.Read', 'Mail.Send'] },
) {
  const link = await startLink(t, owner, payload);
  expect(link.statusCode, link.body).toBe(200);
  const back = await callback(t, await authorizeAtProvider(link.json().data.url));
  expect(back.statusCode, back.body).toBe(302);
  const row = await t.deps.db
    .selectFrom('extmail_credentials')
    .selectAll()
    .where('user', '=', owner.user)
    .where('brand', '=', owner.brand)
    .where('remote_id', '=', current!.account.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { link: link.json().data as { url: string; redirect: string }, back, row };
}
