// MFA recovery codes (issue 33 item 5): handed out once on enabling, stored hashed, accepted instead of an
// authenticator code to validate a login, burned on use, under the same attempt budget; regenerated with a
// current authenticator code.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { hashToken } from '../../lib/crypto.js';
import { bearer, createClient, createUser } from '../../../test/helpers/factories.js';
import { passwordLogin, totpCode } from '../../../test/helpers/oauth.js';

describe('MFA recovery codes', () => {
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
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, pair: Pair, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(pair), ...(payload ? { payload } : {}) });
  const validate = (pair: Pair, token: string) => call('POST', '/users/self/mfa/validate', pair, { token });
  const nextStep = () => t.clock.advance(30);
  const rowsOf = (userId: string) =>
    t.deps.db.selectFrom('mfa_recovery_codes').selectAll().where('user', '=', userId).execute();

  /** A user with MFA enabled, the codes the verify response handed out, and the verified login. */
  async function userWithMfa() {
    const user = await createUser(t.deps);
    const first = await login(user.email);
    const setup = (await call('POST', '/users/self/mfa/setup', first)).json().data;
    expect(setup).not.toHaveProperty('mfa_recovery_codes');
    const verified = await call('POST', '/users/self/mfa/verify', first, { token: totpCode(t, setup.mfa_url) });
    expect(verified.statusCode).toBe(200);
    nextStep();
    const codes: string[] = verified.json().data.mfa_recovery_codes;
    return { user, mfaUrl: setup.mfa_url as string, codes, verifiedLogin: first };
  }

  it('hands out ten distinct codes on enabling, once, and stores only their hashes', async () => {
    const { user, codes, verifiedLogin } = await userWithMfa();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    const rows = await rowsOf(user.id);
    expect(rows).toHaveLength(10);
    const stored = rows.map((row) => Buffer.from(row.code_hash).toString('hex')).sort();
    const expected = codes.map((code) => hashToken(code.replace(/-/g, '')).toString('hex')).sort();
    expect(stored).toEqual(expected);
    expect(rows.every((row) => row.used_at === null)).toBe(true);
    // never shown again
    const self = (await call('GET', '/users/self', verifiedLogin)).json().data;
    expect(self).toMatchObject({ mfa_enabled: true });
    expect(self).not.toHaveProperty('mfa_recovery_codes');
  });

  it('validates a login with a recovery code and burns it: a second use fails like a wrong code', async () => {
    const { user, codes } = await userWithMfa();
    const [a, b] = [await login(user.email), await login(user.email)];
    // typed loosely: upper case, no dashes
    expect((await validate(a, codes[0]!.toUpperCase().replace(/-/g, ''))).statusCode).toBe(204);
    expect((await call('GET', '/users/self', a)).statusCode).toBe(200);
    const burned = (await rowsOf(user.id)).filter((row) => row.used_at !== null);
    expect(burned).toHaveLength(1);
    const reused = await validate(b, codes[0]!);
    const unknown = await validate(b, 'aaaa-aaaa-aaaa-aaaa');
    for (const res of [reused, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'Validation',
        attributes: { token: ['is not a valid authenticator or recovery code'] },
      });
    }
    expect((await call('GET', '/users/self', b)).json().code).toBe('MFARequired');
    expect((await validate(b, codes[1]!)).statusCode).toBe(204);
  });

  it("refuses another user's recovery code", async () => {
    const alice = await userWithMfa();
    const bob = await userWithMfa();
    const pair = await login(alice.user.email);
    expect((await validate(pair, bob.codes[0]!)).statusCode).toBe(400);
    expect((await rowsOf(bob.user.id)).every((row) => row.used_at === null)).toBe(true);
  });

  it('lets only one of two concurrent uses of one recovery code pass', async () => {
    const { user, codes } = await userWithMfa();
    const [a, b] = [await login(user.email), await login(user.email)];
    const results = await Promise.all([a, b].map((pair) => validate(pair, codes[2]!)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 400]);
  });

  it('spends the MFA attempt budget: wrong recovery codes lead to 429, and a good code is then not burned', async () => {
    const { user, codes } = await userWithMfa();
    const pair = await login(user.email);
    for (let i = 0; i < 5; i++) expect((await validate(pair, `wrong-code-${i}`)).statusCode).toBe(400);
    const blocked = await validate(pair, codes[0]!);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    expect((await rowsOf(user.id)).every((row) => row.used_at === null)).toBe(true);
    t.clock.advance(1);
    expect((await validate(pair, codes[0]!)).statusCode).toBe(204);
  });

  it('regenerates with a current authenticator code only; the old codes stop working', async () => {
    const { user, mfaUrl, codes, verifiedLogin } = await userWithMfa();
    const regenerate = (token: string) => call('POST', '/users/self/mfa/recovery-codes', verifiedLogin, { token });
    const withRecovery = await regenerate(codes[0]!);
    expect(withRecovery.statusCode).toBe(400);
    expect(withRecovery.json().attributes.token).toEqual(['is not a valid authenticator code']);
    const res = await regenerate(totpCode(t, mfaUrl));
    expect(res.statusCode).toBe(200);
    const fresh: string[] = res.json().data.mfa_recovery_codes;
    expect(res.json().data).toMatchObject({ id: user.id, mfa_enabled: true });
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
    expect(await rowsOf(user.id)).toHaveLength(10);
    const pair = await login(user.email);
    expect((await validate(pair, codes[1]!)).statusCode).toBe(400);
    expect((await validate(pair, fresh[0]!)).statusCode).toBe(204);
    // the authenticator code just used cannot be replayed for another set
    expect((await regenerate(totpCode(t, mfaUrl))).statusCode).toBe(400);
  });

  it('answers regeneration without MFA with 409, and needs a validated login', async () => {
    const plain = await createUser(t.deps);
    const res = await call('POST', '/users/self/mfa/recovery-codes', await login(plain.email), { token: '123456' });
    expect(res.statusCode).toBe(409);
    const { user, mfaUrl } = await userWithMfa();
    const unvalidated = await login(user.email);
    const gated = await call('POST', '/users/self/mfa/recovery-codes', unvalidated, { token: totpCode(t, mfaUrl) });
    expect(gated.statusCode).toBe(401);
    expect(gated.json().code).toBe('MFARequired');
  });

  it('removes MFA with a recovery code, and the codes with it', async () => {
    const { user, codes, verifiedLogin } = await userWithMfa();
    const res = await call('DELETE', '/users/self/mfa', verifiedLogin, { token: codes[3]! });
    expect(res.statusCode).toBe(204);
    expect(await rowsOf(user.id)).toEqual([]);
    const fresh = await login(user.email);
    expect((await call('GET', '/users/self', fresh)).json().data.mfa_enabled).toBe(false);
  });
});
