// Errors of POST /oauth2/token common to every grant, in RFC 6749 form plus the catalogue fields; and the
// client-credentials grant, whose whole story is which clients may use it.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createClient, createUser, TEST_PASSWORD } from '../../../test/helpers/factories.js';
import { passwordLogin, postToken } from '../../../test/helpers/oauth.js';

describe('POST /oauth2/token errors', () => {
  const t = useTestApp();
  let firstParty: Awaited<ReturnType<typeof createClient>>;
  let partner: Awaited<ReturnType<typeof createClient>>;
  let email: string;
  beforeAll(async () => {
    firstParty = await createClient(t.deps, 'first_party');
    partner = await createClient(t.deps, 'partner');
    email = (await createUser(t.deps)).email;
  });

  const credentials = () => ({ client_id: firstParty.client_id, client_secret: firstParty.client_secret! });

  it('answers malformed JSON with 400 invalid_request', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"grant_type":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ http: 400, code: 'BadRequest', error: 'invalid_request' });
  });

  it('answers a missing grant_type and wrongly typed fields with invalid_request and attributes', async () => {
    const missing = await postToken(t.app, { ...credentials() });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'Validation',
      error: 'invalid_request',
      attributes: { grant_type: ['is required'] },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: { grant_type: 'password', ...credentials(), username: { $ne: '' }, password: ['x'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'Validation', error: 'invalid_request' });
    expect(Object.keys(res.json().attributes)).toEqual(expect.arrayContaining(['username']));
  });

  it('refuses a repeated form parameter (RFC 6749 §3.2)', async () => {
    const { client_id, client_secret } = credentials();
    const payload = `grant_type=password&client_id=${client_id}&client_secret=${client_secret}&username=${encodeURIComponent(email)}&password=a&password=b`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'Validation',
      error: 'invalid_request',
      attributes: { password: [expect.any(String)] },
    });
  });

  it('lists every missing field of the grant', async () => {
    const res = await postToken(t.app, { grant_type: 'password', ...credentials() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'Validation',
      error: 'invalid_request',
      attributes: { username: ['is required'], password: ['is required'] },
    });
  });

  it('answers an unknown grant type with unsupported_grant_type', async () => {
    for (const grantType of ['magic', 'implicit', 'toString']) {
      const res = await postToken(t.app, { grant_type: grantType, ...credentials() });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ http: 400, error: 'unsupported_grant_type' });
    }
  });

  it('answers 401 invalid_client for no, unknown or wrong client credentials', async () => {
    const cases = [
      { grant_type: 'password', username: email, password: TEST_PASSWORD },
      {
        grant_type: 'password',
        client_id: 'no-such-client',
        client_secret: 'x',
        username: email,
        password: TEST_PASSWORD,
      },
      {
        grant_type: 'password',
        client_id: firstParty.client_id,
        client_secret: 'wrong',
        username: email,
        password: TEST_PASSWORD,
      },
      { grant_type: 'password', client_id: firstParty.client_id, username: email, password: TEST_PASSWORD },
    ];
    for (const fields of cases) {
      const res = await postToken(t.app, fields);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ http: 401, code: 'UnauthorizedAccess', error: 'invalid_client' });
    }
    const basic = await postToken(
      t.app,
      { grant_type: 'client_credentials' },
      { basic: { client_id: firstParty.client_id, client_secret: 'wrong' } },
    );
    expect(basic.json()).toMatchObject({ http: 401, error: 'invalid_client' });
    // RFC 6749 §5.2: the challenge names the client's scheme (Basic), not the API's Bearer.
    expect(basic.headers['www-authenticate']).toMatch(/^Basic realm=/);
  });

  it('refuses a secret sent both with Basic and in the body', async () => {
    const res = await postToken(
      t.app,
      { grant_type: 'client_credentials', client_secret: firstParty.client_secret! },
      { basic: credentials() },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('answers unauthorized_client when the client kind may not use the grant', async () => {
    const partnerPassword = await passwordLogin(t.app, partner, email);
    expect(partnerPassword.statusCode).toBe(400);
    expect(partnerPassword.json()).toMatchObject({ http: 400, error: 'unauthorized_client' });
    const partnerClientCredentials = await postToken(t.app, {
      grant_type: 'client_credentials',
      client_id: partner.client_id,
      client_secret: partner.client_secret!,
    });
    expect(partnerClientCredentials.json().error).toBe('unauthorized_client');
    const firstPartyCode = await postToken(t.app, {
      grant_type: 'authorization_code',
      ...credentials(),
      code: 'x',
      redirect_uri: 'http://127.0.0.1/cb',
    });
    expect(firstPartyCode.json().error).toBe('unauthorized_client');
  });

  it('refuses a deleted client, and the tokens it issued', async () => {
    const doomed = await createClient(t.deps, 'first_party');
    const login = (await passwordLogin(t.app, doomed, email)).json();
    await t.deps.db
      .updateTable('oauth_clients')
      .set({ deleted_at: t.clock.now() })
      .where('id', '=', doomed.id)
      .execute();
    const again = await passwordLogin(t.app, doomed, email);
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe('invalid_client');
    expect(
      (await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(login.access_token) })).statusCode,
    ).toBe(401);
  });

  it('issues a client-credentials token without user, refresh token or data', async () => {
    const res = await postToken(t.app, { grant_type: 'client_credentials', ...credentials() }, { form: true });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'code', 'expires_in', 'token_type']);
    expect(body).toMatchObject({ code: 'OK', token_type: 'Bearer', expires_in: 2678400 });
    const family = await t.deps.db
      .selectFrom('token_families')
      .select(['user', 'grant_type'])
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(family).toEqual({ user: null, grant_type: 'client_credentials' });
    // a user route refuses a token with no user
    const self = await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(body.access_token) });
    expect(self.statusCode).toBe(403);
  });
});
