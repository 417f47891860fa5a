// MFA set-up and verification: the first two rows of the spec §3 state table, and their refusals.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { totpCode } from '../../../test/helpers/oauth.js';

describe('POST /users/self/mfa/setup and /verify', () => {
  const t = useTestApp({ env: { APP_NAME: 'Gable Test' } });

  async function newUser() {
    const user = await createUser(t.deps);
    return { user, token: await tokenFor(t.deps, user.id) };
  }
  const post = (url: string, token: { access_token: string }, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload ? { payload } : {}) });

  it('sets up: the user record with an otpauth URI and a PNG QR code, MFA still disabled, secret encrypted', async () => {
    const { user, token } = await newUser();
    const res = await post('/users/self/mfa/setup', token);
    expect(res.statusCode).toBe(200);
    const { code, data } = res.json();
    expect(code).toBe('OK');
    expect(data).toMatchObject({ id: user.id, type: 'user', mfa_enabled: false });
    const url = new URL(data.mfa_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Gable Test:${user.email}`);
    expect(url.searchParams.get('issuer')).toBe('Gable Test');
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    const secret = url.searchParams.get('secret')!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/); // 160 bits in base32
    expect(data.mfa_qr_code).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const row = await t.deps.db
      .selectFrom('users')
      .select(['mfa_secret', 'mfa_enabled'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.mfa_enabled).toBe(false);
    expect(row.mfa_secret).not.toContain(secret);
    expect(t.deps.secrets.decrypt(row.mfa_secret!)).toBe(secret);
  });

  it('replaces an unverified secret when set up again', async () => {
    const { token } = await newUser();
    const first = (await post('/users/self/mfa/setup', token)).json().data.mfa_url;
    const second = (await post('/users/self/mfa/setup', token)).json().data.mfa_url;
    expect(second).not.toBe(first);
    expect((await post('/users/self/mfa/verify', token, { token: totpCode(t, first) })).statusCode).toBe(400);
    expect((await post('/users/self/mfa/verify', token, { token: totpCode(t, second) })).statusCode).toBe(200);
  });

  it('verifies: enables MFA and validates the current login, not the others', async () => {
    const { user, token } = await newUser();
    const otherLogin = await tokenFor(t.deps, user.id);
    const mfaUrl = (await post('/users/self/mfa/setup', token)).json().data.mfa_url;
    const res = await post('/users/self/mfa/verify', token, { token: totpCode(t, mfaUrl) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'OK', data: { id: user.id, mfa_enabled: true } });
    expect(res.json().data.mfa_url).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(token) })).statusCode).toBe(200);
    const blocked = await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(otherLogin) });
    expect(blocked.statusCode).toBe(401);
    expect(blocked.json()).toMatchObject({ http: 401, code: 'MFARequired' });
  });

  it('answers a wrong code with 400 Validation on attributes.token, and keeps MFA off', async () => {
    const { user, token } = await newUser();
    const mfaUrl = (await post('/users/self/mfa/setup', token)).json().data.mfa_url;
    const good = totpCode(t, mfaUrl);
    const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, '0');
    for (const code of [wrong, 'abcdef', '', '1234567']) {
      const res = await post('/users/self/mfa/verify', token, { token: code });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ http: 400, code: 'Validation', attributes: { token: [expect.any(String)] } });
    }
    const missing = await post('/users/self/mfa/verify', token, {});
    expect(missing.json()).toMatchObject({ http: 400, code: 'Validation', attributes: { token: ['is required'] } });
    const row = await t.deps.db
      .selectFrom('users')
      .select('mfa_enabled')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.mfa_enabled).toBe(false);
  });

  it('refuses verify without set-up, and set-up or verify once enabled (409)', async () => {
    const { token } = await newUser();
    const withoutSetup = await post('/users/self/mfa/verify', token, { token: '123456' });
    expect(withoutSetup.statusCode).toBe(409);
    expect(withoutSetup.json()).toMatchObject({
      http: 409,
      code: 'Conflict',
      message: 'MFA is not set up: call POST /users/self/mfa/setup first',
    });
    const mfaUrl = (await post('/users/self/mfa/setup', token)).json().data.mfa_url;
    await post('/users/self/mfa/verify', token, { token: totpCode(t, mfaUrl) });
    expect((await post('/users/self/mfa/setup', token)).statusCode).toBe(409);
    t.clock.advance(30);
    expect((await post('/users/self/mfa/verify', token, { token: totpCode(t, mfaUrl) })).statusCode).toBe(409);
  });

  it('refuses a client-credentials token (no user)', async () => {
    const { token } = await newUser();
    const family = await t.deps.db
      .selectFrom('access_tokens')
      .select('family')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    await t.deps.db.updateTable('token_families').set({ user: null }).where('id', '=', family.family).execute();
    expect((await post('/users/self/mfa/setup', token)).statusCode).toBe(403);
  });
});
