// Password grant: the happy path in every request form, wrong credentials, deleted users, token lifetime.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createClient, createUser, TEST_PASSWORD } from '../../../test/helpers/factories.js';
import { passwordLogin, postToken } from '../../../test/helpers/oauth.js';
import { ACCESS_TOKEN_SECONDS } from './token-policy.js';

describe('POST /oauth2/token grant_type=password', () => {
  const t = useTestApp();
  let client: Awaited<ReturnType<typeof createClient>>;
  beforeAll(async () => {
    client = await createClient(t.deps, 'first_party');
  });

  it('answers the token response with the user record as data (JSON body)', async () => {
    const user = await createUser(t.deps, { first_name: 'Ada', last_name: 'Lovelace' });
    const res = await passwordLogin(t.app, client, user.email);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 'OK', token_type: 'Bearer', expires_in: 2678400 });
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.access_token).not.toBe(body.refresh_token);
    expect(body.data).toMatchObject({
      id: user.id,
      type: 'user',
      email: user.email,
      first_name: 'Ada',
      mfa_enabled: false,
      has_password: true,
    });
    expect(body.data.mfa_url).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');

    const self = await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(body.access_token) });
    expect(self.statusCode).toBe(200);
    expect(self.json().data.id).toBe(user.id);
  });

  it('accepts a form-encoded body', async () => {
    const user = await createUser(t.deps);
    const res = await passwordLogin(t.app, client, user.email, TEST_PASSWORD, { form: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe(user.id);
  });

  it('accepts client credentials with HTTP Basic', async () => {
    const user = await createUser(t.deps);
    const res = await postToken(
      t.app,
      { grant_type: 'password', username: user.email, password: TEST_PASSWORD },
      { form: true, basic: { client_id: client.client_id, client_secret: client.client_secret! } },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe(user.id);
  });

  it('matches the email case-insensitively', async () => {
    const user = await createUser(t.deps, { email: `Mixed.Case-${Date.now()}@Example.com` });
    const res = await passwordLogin(t.app, client, user.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe(user.id);
  });

  it('answers invalid_grant for a wrong password, an unknown email, a user without password', async () => {
    const user = await createUser(t.deps);
    const noPassword = await createUser(t.deps, { password: null });
    for (const [email, password] of [
      [user.email, 'wrong password'],
      ['nobody@example.com', TEST_PASSWORD],
      [noPassword.email, TEST_PASSWORD],
    ] as const) {
      const res = await passwordLogin(t.app, client, email, password);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        http: 400,
        code: 'BadRequest',
        message: 'Wrong email or password',
        error: 'invalid_grant',
        error_description: 'Wrong email or password',
      });
    }
  });

  it('refuses deleted users, and the tokens they already hold', async () => {
    const user = await createUser(t.deps);
    const login = (await passwordLogin(t.app, client, user.email)).json();
    await t.deps.db.updateTable('users').set({ deleted_at: t.clock.now() }).where('id', '=', user.id).execute();
    expect((await passwordLogin(t.app, client, user.email)).json().error).toBe('invalid_grant');
    const self = await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(login.access_token) });
    expect(self.statusCode).toBe(401);
    const refreshed = await postToken(t.app, {
      grant_type: 'refresh_token',
      client_id: client.client_id,
      client_secret: client.client_secret!,
      refresh_token: login.refresh_token,
    });
    expect(refreshed.json()).toMatchObject({ http: 400, error: 'invalid_grant' });
  });

  it('expires the access token after 2678400 seconds (401 TokenExpired)', async () => {
    const user = await createUser(t.deps);
    const login = (await passwordLogin(t.app, client, user.email)).json();
    t.clock.advance(ACCESS_TOKEN_SECONDS - 1);
    expect(
      (await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(login.access_token) })).statusCode,
    ).toBe(200);
    t.clock.advance(1);
    const expired = await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(login.access_token) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ http: 401, code: 'TokenExpired' });
    // the refresh token outlives the access token
    const refreshed = await postToken(t.app, {
      grant_type: 'refresh_token',
      client_id: client.client_id,
      client_secret: client.client_secret!,
      refresh_token: login.refresh_token,
    });
    expect(refreshed.statusCode).toBe(200);
  });
});
