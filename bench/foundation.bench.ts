// Foundation figures (issue: baseline, GET /users/self, refresh grant, password grant, argon2 per hash).
import type { Deps } from '../src/platform/deps.js';
import { hashPassword, verifyPassword } from '../src/lib/passwords.js';
import { createOAuthClient } from '../src/modules/auth/clients.service.js';
import { issueNewFamily } from '../src/modules/auth/tokens.service.js';
import { cannon, type LoadResult } from './lib/load.js';

export interface FoundationFixture {
  userId: string;
  email: string;
  password: string;
  clientId: string;
  clientSecret: string;
  client: string;
  accessToken: string;
}

const PASSWORD = 'bench password 1234';

export async function createFoundationFixture(deps: Deps): Promise<FoundationFixture> {
  const brand = await deps.db
    .insertInto('brands')
    .values({ name: 'Bench Realty', parent: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const email = `bench-${Date.now()}@example.com`;
  const user = await deps.db
    .insertInto('users')
    .values({
      email,
      first_name: 'Bench',
      last_name: 'User',
      password_hash: await hashPassword(PASSWORD),
      timezone: 'America/Chicago',
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await deps.db
    .insertInto('memberships')
    .values({ user: user.id, brand: brand.id, acl: ['Admin', 'CRM', 'Marketing', 'Deals'], deleted_at: null })
    .execute();
  await deps.db.updateTable('users').set({ active_brand: brand.id }).where('id', '=', user.id).execute();
  const client = await createOAuthClient(deps.db, { name: 'Bench first-party', kind: 'first_party' });
  const tokens = await issueNewFamily(deps.db, deps.clock, {
    user: user.id,
    client: client.id,
    brand: null,
    grantType: 'password',
    mfaValidated: false,
    withRefreshToken: true,
  });
  return {
    userId: user.id,
    email,
    password: PASSWORD,
    clientId: client.client_id,
    clientSecret: client.client_secret!,
    client: client.id,
    accessToken: tokens.access_token,
  };
}

export async function refreshTokens(deps: Deps, fixture: FoundationFixture, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const issued = await issueNewFamily(deps.db, deps.clock, {
      user: fixture.userId,
      client: fixture.client,
      brand: null,
      grantType: 'password',
      mfaValidated: false,
      withRefreshToken: true,
    });
    tokens.push(issued.refresh_token!);
  }
  return tokens;
}

export async function argon2MillisecondsPerHash(samples = 10): Promise<number> {
  await hashPassword('warm-up');
  const started = performance.now();
  for (let i = 0; i < samples; i++) await hashPassword(`sample ${i}`);
  return (performance.now() - started) / samples;
}

/**
 * The machine's argon2id verify rate with both cores busy: `parallel` verifies in flight, as the server runs them
 * (libuv's pool of 4 threads; the password bench keeps 4 requests in flight). The password grant's target is a
 * share of this rate, measured in the same run.
 */
export async function argon2VerifiesPerSecond(seconds = 3, parallel = 4): Promise<number> {
  const hash = await hashPassword(PASSWORD);
  await verifyPassword(hash, PASSWORD);
  const started = performance.now();
  const end = started + seconds * 1000;
  let verified = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (performance.now() < end) {
        if (!(await verifyPassword(hash, PASSWORD))) throw new Error('argon2id verify failed');
        verified++;
      }
    }),
  );
  return verified / ((performance.now() - started) / 1000);
}

export async function benchBaseline(url: string, userId: string, duration: number): Promise<LoadResult> {
  return cannon({ name: 'baseline: Fastify + pg SELECT user by id', url: `${url}/users/${userId}`, duration });
}

export async function benchUsersSelf(url: string, fixture: FoundationFixture, duration: number): Promise<LoadResult> {
  return cannon({
    name: 'GET /users/self (bearer)',
    url: `${url}/users/self`,
    duration,
    headers: { authorization: `Bearer ${fixture.accessToken}` },
  });
}

export async function benchRefreshGrant(
  url: string,
  fixture: FoundationFixture,
  refreshTokenPool: string[],
): Promise<LoadResult> {
  const pool = [...refreshTokenPool];
  return cannon({
    name: 'POST /oauth2/token refresh_token',
    url: `${url}/oauth2/token`,
    amount: pool.length,
    requests: [
      {
        method: 'POST',
        path: '/oauth2/token',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            grant_type: 'refresh_token',
            refresh_token: pool.pop(),
            client_id: fixture.clientId,
            client_secret: fixture.clientSecret,
          }),
        }),
      },
    ],
  });
}

export async function benchPasswordGrant(
  url: string,
  fixture: FoundationFixture,
  duration: number,
): Promise<LoadResult> {
  return cannon({
    name: 'POST /oauth2/token password',
    url: `${url}/oauth2/token`,
    duration,
    connections: 4,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      username: fixture.email,
      password: fixture.password,
      client_id: fixture.clientId,
      client_secret: fixture.clientSecret,
    }),
  });
}
