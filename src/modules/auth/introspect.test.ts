// RFC 7662 introspection: what a live token's answer says, that every dead token is `{ active: false }` and nothing
// more, and who may ask.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runAdminCommand } from '../../../test/helpers/cli.js';
import { createBrand, createClient, createUser } from '../../../test/helpers/factories.js';
import { passwordLogin, postToken, refresh, type TokenRequestOptions } from '../../../test/helpers/oauth.js';
import { registerClientCommands } from './auth.cli.js';
import { createOAuthClient, type CreatedClient } from './clients.service.js';
import { ACCESS_TOKEN_SECONDS } from './token-policy.js';
import { issueNewFamily } from './tokens.service.js';

describe('POST /oauth2/introspect', () => {
  const t = useTestApp();
  let resourceServer: CreatedClient;
  let app: CreatedClient;
  beforeAll(async () => {
    resourceServer = await createOAuthClient(t.deps.db, {
      name: 'Listings resource server',
      kind: 'first_party',
      mayIntrospect: true,
    });
    app = await createClient(t.deps, 'first_party');
  });

  const introspect = (fields: Record<string, string | undefined>, options: TokenRequestOptions = {}) =>
    postToken(
      t.app,
      options.basic
        ? fields
        : { client_id: resourceServer.client_id, client_secret: resourceServer.client_secret!, ...fields },
      { url: '/oauth2/introspect', ...options },
    );
  async function login() {
    const user = await createUser(t.deps);
    const pair = (await passwordLogin(t.app, app, user.email)).json() as {
      access_token: string;
      refresh_token: string;
    };
    return { user, ...pair };
  }
  const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);

  it("describes another client's live access token", async () => {
    const { user, access_token } = await login();
    const res = await introspect({ token: access_token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const answer = res.json();
    expect(answer).toEqual({
      active: true,
      scope: 'full',
      client_id: app.client_id,
      sub: user.id,
      exp: expect.any(Number),
      iat: expect.any(Number),
      token_type: 'Bearer',
    });
    expect(answer.exp).toBeGreaterThanOrEqual(nowSeconds() + ACCESS_TOKEN_SECONDS - 5);
    expect(answer.exp).toBeLessThanOrEqual(nowSeconds() + ACCESS_TOKEN_SECONDS);
    expect(Math.abs(answer.iat - Math.floor(Date.now() / 1000))).toBeLessThan(60);
  });

  it('describes a live refresh token (form, HTTP Basic, either hint), with the brand and scope of its login', async () => {
    const brand = await createBrand(t.deps);
    const user = await createUser(t.deps);
    const partner = await createClient(t.deps, 'partner');
    const pair = await issueNewFamily(t.deps.db, t.deps.clock, {
      user: user.id,
      client: partner.id,
      brand: brand.id,
      grantType: 'authorization_code',
      mfaValidated: false,
      scope: 'openid email',
      withRefreshToken: true,
    });
    const basic = { client_id: resourceServer.client_id, client_secret: resourceServer.client_secret! };
    for (const hint of ['refresh_token', 'access_token', undefined]) {
      const res = await introspect({ token: pair.refresh_token!, token_type_hint: hint }, { form: true, basic });
      expect(res.statusCode, String(hint)).toBe(200);
      expect(res.json(), String(hint)).toEqual({
        active: true,
        scope: 'openid email',
        client_id: partner.client_id,
        sub: user.id,
        exp: expect.any(Number),
        iat: expect.any(Number),
        token_type: 'refresh_token',
        brand: brand.id,
      });
    }
    const access = await introspect({ token: pair.access_token, token_type_hint: 'refresh_token' });
    expect(access.json()).toMatchObject({ active: true, token_type: 'Bearer', brand: brand.id });
  });

  it('leaves out sub for a client_credentials token', async () => {
    const token = (
      await postToken(t.app, {
        grant_type: 'client_credentials',
        client_id: app.client_id,
        client_secret: app.client_secret!,
      })
    ).json().access_token as string;
    const answer = (await introspect({ token })).json();
    expect(answer).toMatchObject({ active: true, client_id: app.client_id, token_type: 'Bearer' });
    expect(answer).not.toHaveProperty('sub');
  });

  it('answers exactly { active: false } for a revoked login, both tokens', async () => {
    const pair = await login();
    const revoked = await postToken(
      t.app,
      { token: pair.refresh_token, client_id: app.client_id, client_secret: app.client_secret! },
      { url: '/oauth2/revoke' },
    );
    expect(revoked.statusCode).toBe(200);
    for (const token of [pair.access_token, pair.refresh_token]) {
      const res = await introspect({ token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toStrictEqual({ active: false });
    }
  });

  it('answers exactly { active: false } for an expired access token, while its refresh token lives', async () => {
    const pair = await login();
    t.clock.advance(ACCESS_TOKEN_SECONDS + 1);
    try {
      expect((await introspect({ token: pair.access_token })).json()).toStrictEqual({ active: false });
      expect((await introspect({ token: pair.refresh_token })).json()).toMatchObject({ active: true });
    } finally {
      t.clock.advance(-(ACCESS_TOKEN_SECONDS + 1));
    }
  });

  it('answers exactly { active: false } for a rotated refresh token, and describes its successor', async () => {
    const pair = await login();
    const next = (await refresh(t.app, app, pair.refresh_token)).json() as { refresh_token: string };
    expect((await introspect({ token: pair.refresh_token })).json()).toStrictEqual({ active: false });
    expect((await introspect({ token: next.refresh_token })).json()).toMatchObject({
      active: true,
      token_type: 'refresh_token',
    });
  });

  it('answers exactly { active: false } for an unknown, empty or malformed token, whatever the hint', async () => {
    for (const token of ['never-issued', '', 'Bearer x y z', '\u00ff'.repeat(300)])
      for (const hint of ['access_token', 'refresh_token', 'id_token', undefined]) {
        const res = await introspect({ token, token_type_hint: hint });
        expect(res.statusCode, `${token} ${hint}`).toBe(200);
        expect(res.json()).toStrictEqual({ active: false });
      }
  });

  it('answers { active: false } for the access token of a login still waiting for its MFA code', async () => {
    const { user, access_token } = await login();
    await t.deps.db.updateTable('users').set({ mfa_enabled: true }).where('id', '=', user.id).execute();
    expect((await introspect({ token: access_token })).json()).toStrictEqual({ active: false });
  });

  it('refuses a public client, a client without the permission and a wrong secret with 401 invalid_client', async () => {
    const { access_token } = await login();
    const publicClient = await createClient(t.deps, 'public');
    const refusals = [
      introspect({ token: access_token, client_id: publicClient.client_id, client_secret: undefined }),
      introspect({ token: access_token, client_id: app.client_id, client_secret: app.client_secret! }),
      introspect({ token: access_token, client_secret: 'not-the-secret' }),
      introspect({ token: access_token, client_id: undefined, client_secret: undefined }),
      introspect(
        { token: access_token },
        { form: true, basic: { client_id: resourceServer.client_id, client_secret: 'not-the-secret' } },
      ),
    ];
    for (const res of await Promise.all(refusals)) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ http: 401, error: 'invalid_client' });
      expect(res.body).not.toContain('active');
    }
  });

  it('will not register a public client that introspects', async () => {
    await expect(
      createOAuthClient(t.deps.db, {
        name: 'x',
        kind: 'public',
        redirectUris: ['http://127.0.0.1/cb'],
        mayIntrospect: true,
      }),
    ).rejects.toThrow(/public client cannot introspect/);
  });

  it('is allowed by `gable admin client create --introspect`, for confidential clients only', async () => {
    const run = (...args: string[]) => runAdminCommand(registerClientCommands, t.deps, 'client', 'create', ...args);
    const created = JSON.parse((await run('--name', 'RS', '--kind', 'first_party', '--introspect', '--json')).out);
    expect(created).toMatchObject({ may_introspect: true });
    const { access_token } = await login();
    const res = await introspect({
      token: access_token,
      client_id: created.client_id,
      client_secret: created.client_secret,
    });
    expect(res.json()).toMatchObject({ active: true, client_id: app.client_id });
    const listed = await runAdminCommand(registerClientCommands, t.deps, 'client', 'list');
    expect(listed.out).toContain(`${created.client_id}  first_party  RS (introspects)`);
    const text = await run(
      '--name',
      'RS text',
      '--kind',
      'partner',
      '--redirect-uri',
      'https://rs.example/cb',
      '--introspect',
    );
    expect(text.out).toContain('introspection: allowed');
    const refused = await run(
      '--name',
      'P',
      '--kind',
      'public',
      '--redirect-uri',
      'http://127.0.0.1/cb',
      '--introspect',
    );
    expect(refused).toMatchObject({ exitCode: 1, err: expect.stringContaining('confidential clients only') });
    const plain = JSON.parse((await run('--name', 'Plain', '--kind', 'first_party', '--json')).out);
    expect(plain).toMatchObject({ may_introspect: false });
  });

  it('answers a missing token with invalid_request', async () => {
    const res = await introspect({});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request', attributes: { token: ['is required'] } });
  });

  it('is published in the RFC 8414 metadata and the OpenID Connect discovery document', async () => {
    for (const url of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      expect((await t.app.inject({ method: 'GET', url })).json(), url).toMatchObject({
        introspection_endpoint: 'http://gable.test/oauth2/introspect',
        introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      });
    }
  });
});
