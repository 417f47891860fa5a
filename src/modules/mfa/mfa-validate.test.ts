// MFA with MFA enabled: the gate on new logins, validation per login (token family), replay refusal, the
// attempt budget, clock drift, and removal. Rows 3–5 of the spec §3 state table.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { attemptKey, IP_POLICY } from '../../platform/attempts.js';
import { bearer, createClient, createUser } from '../../../test/helpers/factories.js';
import { passwordLogin, refresh, totpCode } from '../../../test/helpers/oauth.js';

describe('MFA enabled: /users/self/mfa/validate and DELETE /users/self/mfa', () => {
  const t = useTestApp();
  let client: Awaited<ReturnType<typeof createClient>>;
  beforeAll(async () => {
    client = await createClient(t.deps, 'first_party');
  });

  interface Pair {
    access_token: string;
    refresh_token: string;
  }
  const login = async (email: string): Promise<Pair> => (await passwordLogin(t.app, client, email)).json();
  const call = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, pair: Pair, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(pair), ...(payload ? { payload } : {}) });
  /** Each code is accepted once: move to the next 30 s step before using another. */
  const nextStep = () => t.clock.advance(30);

  /** A user with MFA enabled (set up and verified through a first login) and its otpauth URI. */
  async function userWithMfa() {
    const user = await createUser(t.deps);
    const first = await login(user.email);
    const mfaUrl: string = (await call('POST', '/users/self/mfa/setup', first)).json().data.mfa_url;
    expect((await call('POST', '/users/self/mfa/verify', first, { token: totpCode(t, mfaUrl) })).statusCode).toBe(200);
    nextStep();
    return { user, mfaUrl, verifiedLogin: first };
  }

  it('blocks a new login with 401 MFARequired until it validates; refreshed pairs stay validated', async () => {
    const { user, mfaUrl } = await userWithMfa();
    const pair = await login(user.email);
    for (const [method, url] of [
      ['GET', '/users/self'],
      ['POST', '/users/self/mfa/setup'],
      ['PATCH', '/users/self/password'],
    ] as const) {
      const res = await call(
        method,
        url,
        pair,
        method === 'PATCH' ? { old_password: 'x', new_password: 'y'.repeat(10) } : undefined,
      );
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ http: 401, code: 'MFARequired', message: expect.any(String) });
    }
    const validated = await call('POST', '/users/self/mfa/validate', pair, { token: totpCode(t, mfaUrl) });
    expect(validated.statusCode).toBe(204);
    expect(validated.body).toBe('');
    expect((await call('GET', '/users/self', pair)).statusCode).toBe(200);
    const refreshed = (await refresh(t.app, client, pair.refresh_token)).json();
    expect((await call('GET', '/users/self', refreshed)).statusCode).toBe(200);
  });

  it('refuses a code used before (replay), even within its window', async () => {
    const { user, mfaUrl } = await userWithMfa();
    const [a, b] = [await login(user.email), await login(user.email)];
    const code = totpCode(t, mfaUrl);
    expect((await call('POST', '/users/self/mfa/validate', a, { token: code })).statusCode).toBe(204);
    const replay = await call('POST', '/users/self/mfa/validate', b, { token: code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({
      code: 'Validation',
      attributes: { token: ['has already been used: wait for the next code'] },
    });
    // an older code (previous step, still inside the drift window) is refused too
    expect((await call('POST', '/users/self/mfa/validate', b, { token: totpCode(t, mfaUrl, -1) })).statusCode).toBe(
      400,
    );
    nextStep();
    expect((await call('POST', '/users/self/mfa/validate', b, { token: totpCode(t, mfaUrl) })).statusCode).toBe(204);
  });

  it('lets only one of two concurrent uses of one code pass', async () => {
    const { user, mfaUrl } = await userWithMfa();
    const [a, b] = [await login(user.email), await login(user.email)];
    const code = totpCode(t, mfaUrl);
    const results = await Promise.all(
      [a, b].map((pair) => call('POST', '/users/self/mfa/validate', pair, { token: code })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 400]);
  });

  it('accepts one step of clock drift either side, not two', async () => {
    const { user, mfaUrl } = await userWithMfa();
    nextStep(); // so that the previous step is not the one verify used
    const pair = await login(user.email);
    expect((await call('POST', '/users/self/mfa/validate', pair, { token: totpCode(t, mfaUrl, 2) })).statusCode).toBe(
      400,
    );
    expect((await call('POST', '/users/self/mfa/validate', pair, { token: totpCode(t, mfaUrl, -2) })).statusCode).toBe(
      400,
    );
    expect((await call('POST', '/users/self/mfa/validate', pair, { token: totpCode(t, mfaUrl, -1) })).statusCode).toBe(
      204,
    );
    const other = await login(user.email);
    expect((await call('POST', '/users/self/mfa/validate', other, { token: totpCode(t, mfaUrl, 1) })).statusCode).toBe(
      204,
    );
  });

  it("refuses another user's code", async () => {
    const alice = await userWithMfa();
    const bob = await userWithMfa();
    const pair = await login(alice.user.email);
    expect((await call('POST', '/users/self/mfa/validate', pair, { token: totpCode(t, bob.mfaUrl) })).statusCode).toBe(
      400,
    );
  });

  it('limits wrong codes per user: delays from the 5th failure, 429 with Retry-After', async () => {
    const { user, mfaUrl } = await userWithMfa();
    const pair = await login(user.email);
    const wrong = () => String((Number(totpCode(t, mfaUrl)) + 500_000) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++)
      expect((await call('POST', '/users/self/mfa/validate', pair, { token: wrong() })).statusCode).toBe(400);
    const blocked = await call('POST', '/users/self/mfa/validate', pair, { token: totpCode(t, mfaUrl) });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    expect(blocked.json()).toMatchObject({ http: 429, code: 'TooManyRequests' });
    // the caller's IP carries the wrong codes too, in the budget the password checks share
    const ip = await t.deps.db
      .selectFrom('attempt_counters')
      .select('failures')
      .where('key', '=', attemptKey('ip', '127.0.0.1', IP_POLICY).key)
      .executeTakeFirst();
    expect(ip?.failures).toBeGreaterThanOrEqual(5);
    t.clock.advance(1);
    expect((await call('POST', '/users/self/mfa/validate', pair, { token: totpCode(t, mfaUrl) })).statusCode).toBe(204);
  });

  it('answers validate for a user without MFA with 409', async () => {
    const user = await createUser(t.deps);
    const pair = await login(user.email);
    const res = await call('POST', '/users/self/mfa/validate', pair, { token: '123456' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'Conflict',
      message: 'MFA is not enabled for this user: nothing to validate',
    });
  });

  it('removes MFA with a valid code (204); new logins are then not gated', async () => {
    const { user, mfaUrl, verifiedLogin } = await userWithMfa();
    expect(
      (
        await call('DELETE', '/users/self/mfa', verifiedLogin, {
          token: '000000' === totpCode(t, mfaUrl) ? '111111' : '000000',
        })
      ).statusCode,
    ).toBe(400);
    const res = await call('DELETE', '/users/self/mfa', verifiedLogin, { token: totpCode(t, mfaUrl) });
    expect(res.statusCode).toBe(204);
    const row = await t.deps.db
      .selectFrom('users')
      .select(['mfa_enabled', 'mfa_secret', 'mfa_last_step'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ mfa_enabled: false, mfa_secret: null, mfa_last_step: null });
    const fresh = await login(user.email);
    expect((await call('GET', '/users/self', fresh)).json().data.mfa_enabled).toBe(false);
    nextStep();
    const again = await call('DELETE', '/users/self/mfa', fresh, { token: totpCode(t, mfaUrl) });
    expect(again.statusCode).toBe(409);
  });

  it('needs a validated login to remove MFA', async () => {
    const { user, mfaUrl } = await userWithMfa();
    const unvalidated = await login(user.email);
    const res = await call('DELETE', '/users/self/mfa', unvalidated, { token: totpCode(t, mfaUrl) });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('MFARequired');
  });
});
