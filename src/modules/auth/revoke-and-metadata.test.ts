// RFC 7009 revocation and RFC 8414 metadata.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createClient, createUser } from '../../../test/helpers/factories.js';
import { passwordLogin, postToken, refresh } from '../../../test/helpers/oauth.js';

describe('POST /oauth2/revoke', () => {
  const t = useTestApp({ env: { WEB_URL: 'http://web.gable.test' } });
  let client: Awaited<ReturnType<typeof createClient>>;
  beforeAll(async () => {
    client = await createClient(t.deps, 'first_party');
  });

  async function login() {
    const user = await createUser(t.deps);
    return (await passwordLogin(t.app, client, user.email)).json() as { access_token: string; refresh_token: string };
  }
  const revoke = (fields: Record<string, string | undefined>, options: Parameters<typeof postToken>[2] = {}) =>
    postToken(t.app, fields, { url: '/oauth2/revoke', ...options });
  const self = (token: string) => t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(token) });

  it('revoking the refresh token ends the whole login', async () => {
    const pair = await login();
    const res = await revoke({
      token: pair.refresh_token,
      token_type_hint: 'refresh_token',
      client_id: client.client_id,
      client_secret: client.client_secret!,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'OK' });
    expect((await self(pair.access_token)).statusCode).toBe(401);
    expect((await refresh(t.app, client, pair.refresh_token)).json().error).toBe('invalid_grant');
  });

  it('revoking the access token (form, Basic, wrong hint) ends the whole login', async () => {
    const pair = await login();
    const res = await revoke(
      { token: pair.access_token, token_type_hint: 'refresh_token' },
      { form: true, basic: { client_id: client.client_id, client_secret: client.client_secret! } },
    );
    expect(res.statusCode).toBe(200);
    expect((await self(pair.access_token)).statusCode).toBe(401);
    expect((await refresh(t.app, client, pair.refresh_token)).statusCode).toBe(400);
  });

  it('answers 200 for an unknown token', async () => {
    const res = await revoke({
      token: 'never-issued',
      client_id: client.client_id,
      client_secret: client.client_secret!,
    });
    expect(res.statusCode).toBe(200);
  });

  it('needs client authentication, and the client the token was issued to', async () => {
    const pair = await login();
    const anonymous = await revoke({ token: pair.access_token });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ http: 401, error: 'invalid_client' });
    const other = await createClient(t.deps, 'first_party');
    const foreign = await revoke({
      token: pair.access_token,
      client_id: other.client_id,
      client_secret: other.client_secret!,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toBe('unauthorized_client');
    expect((await self(pair.access_token)).statusCode).toBe(200);
  });

  it('answers a missing token with invalid_request', async () => {
    const res = await revoke({ client_id: client.client_id, client_secret: client.client_secret! });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request', attributes: { token: ['is required'] } });
  });

  it('publishes RFC 8414 metadata', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      issuer: 'http://gable.test',
      authorization_endpoint: 'http://web.gable.test/oauth2/auth',
      token_endpoint: 'http://gable.test/oauth2/token',
      revocation_endpoint: 'http://gable.test/oauth2/revoke',
      grant_types_supported: ['password', 'refresh_token', 'client_credentials', 'authorization_code', 'implicit'],
      response_types_supported: ['code', 'token', 'id_token', 'id_token token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      introspection_endpoint: 'http://gable.test/oauth2/introspect',
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      // docs/oauth.md "Scopes": the API scopes, then OpenID Connect's
      scopes_supported: [
        'full',
        'account',
        'brands:read',
        'brands:admin',
        'contacts:read',
        'contacts:write',
        'deals:read',
        'deals:write',
        'listings:read',
        'listings:write',
        'marketing',
        'webhooks',
        'openid',
        'profile',
        'email',
        'phone',
        'offline_access',
      ],
    });
  });

  it('lists the OAuth endpoints in OpenAPI', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/oauth2/token', '/oauth2/revoke', '/.well-known/oauth-authorization-server']),
    );
    // no bearer token; RFC 6749 clients send forms
    for (const [path, method] of [
      ['/oauth2/token', 'post'],
      ['/oauth2/revoke', 'post'],
      ['/.well-known/oauth-authorization-server', 'get'],
    ] as const) {
      expect(spec.paths[path][method].security, path).toEqual([]);
    }
    for (const path of ['/oauth2/token', '/oauth2/revoke']) {
      expect(Object.keys(spec.paths[path].post.requestBody.content), path).toEqual([
        'application/json',
        'application/x-www-form-urlencoded',
      ]);
    }
  });
});
