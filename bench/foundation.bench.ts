// Foundation figures (issue: baseline, GET /users/self, refresh grant, password grant, argon2 per hash).
import type { Deps } from '../src/platform/deps.js';
import { hashPassword, verifyPassword } from '../src/lib/passwords.js';
import { createOAuthClient } from '../src/modules/auth/clients.service.js';
import { issueNewFamily } from '../src/modules/auth/tokens.service.js';
import { randomToken, sha256Base64Url } from '../src/lib/crypto.js';
import type { SigningAlg } from '../src/modules/auth/auth.columns.js';
import { createAuthorizationCode } from '../src/modules/auth/authorization-codes.js';
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

// Issue 33's figures: introspection beside GET /users/self, and the authorization-code exchange with and without
// an id_token (each pool of codes made here as the authorize pages make them, so the exchange is all that is timed).

export interface IntrospectingClient {
  clientId: string;
  clientSecret: string;
}

/** A confidential client an operator allowed to introspect (`gable admin client create --introspect`). */
export async function createIntrospectingClient(deps: Deps): Promise<IntrospectingClient> {
  const client = await createOAuthClient(deps.db, {
    name: 'Bench resource server',
    kind: 'first_party',
    mayIntrospect: true,
  });
  return { clientId: client.client_id, clientSecret: client.client_secret! };
}

/** POST /oauth2/introspect of the fixture's (live) access token, the client's secret in the body, c = 10 as above. */
export async function benchIntrospect(
  url: string,
  fixture: FoundationFixture,
  introspector: IntrospectingClient,
  duration: number,
): Promise<LoadResult> {
  return cannon({
    name: 'POST /oauth2/introspect (access token)',
    url: `${url}/oauth2/introspect`,
    duration,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      token: fixture.accessToken,
      token_type_hint: 'access_token',
      client_id: introspector.clientId,
      client_secret: introspector.clientSecret,
    }),
  });
}

export interface CodePool {
  name: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Unused codes and the PKCE verifier each was issued for. */
  codes: { code: string; verifier: string }[];
}

const BENCH_REDIRECT_URI = 'https://partner.example.com/callback';

/**
 * `count` codes of a partner client for the fixture's user and brand, made by createAuthorizationCode (what
 * src/web/approve.ts calls on consent) with a PKCE S256 challenge. `openid`: the scope a "Sign in with" partner
 * asks for (`openid profile email`, with a nonce), so the exchange signs an id_token with `alg`; otherwise no
 * scope, as the WordPress plugin and existing partners send.
 */
export async function authorizationCodePool(
  deps: Deps,
  fixture: FoundationFixture,
  options: { count: number; openid: boolean; alg?: SigningAlg },
): Promise<CodePool> {
  const user = await deps.db
    .selectFrom('users')
    .select('active_brand')
    .where('id', '=', fixture.userId)
    .executeTakeFirstOrThrow();
  const client = await createOAuthClient(deps.db, {
    name: `Bench partner ${options.openid ? `openid ${options.alg ?? 'RS256'}` : 'no scope'}`,
    kind: 'partner',
    redirectUris: [BENCH_REDIRECT_URI],
    idTokenSignedResponseAlg: options.alg ?? 'RS256',
  });
  const codes: CodePool['codes'] = [];
  const authTime = deps.clock.now();
  for (let made = 0; made < options.count; made += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, options.count - made) }, async () => {
        const verifier = randomToken(32);
        const code = await createAuthorizationCode(deps.db, deps.clock, {
          client: client.id,
          user: fixture.userId,
          brand: user.active_brand!,
          redirectUri: BENCH_REDIRECT_URI,
          codeChallenge: sha256Base64Url(verifier),
          mfaValidated: true,
          scope: options.openid ? 'openid profile email' : null,
          nonce: options.openid ? randomToken(12) : null,
          authTime,
          amr: ['pwd'],
        });
        return { code, verifier };
      }),
    );
    codes.push(...batch);
  }
  const name = options.openid
    ? `POST /oauth2/token authorization_code + id_token (${options.alg ?? 'RS256'})`
    : 'POST /oauth2/token authorization_code (no openid)';
  return {
    name,
    clientId: client.client_id,
    clientSecret: client.client_secret!,
    redirectUri: BENCH_REDIRECT_URI,
    codes,
  };
}

/** Exchanges every code of the pool once (codes are single-use), c = 10 like the refresh grant. */
export async function benchCodeExchange(url: string, pool: CodePool): Promise<LoadResult> {
  const codes = [...pool.codes];
  return cannon({
    name: pool.name,
    url: `${url}/oauth2/token`,
    amount: codes.length,
    requests: [
      {
        method: 'POST',
        path: '/oauth2/token',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          const next = codes.pop()!;
          return {
            ...request,
            body: JSON.stringify({
              grant_type: 'authorization_code',
              code: next.code,
              code_verifier: next.verifier,
              redirect_uri: pool.redirectUri,
              client_id: pool.clientId,
              client_secret: pool.clientSecret,
            }),
          };
        },
      },
    ],
  });
}
