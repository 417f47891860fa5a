// GET /oauth2/auth parameter handling: page errors (never a redirect) and redirected errors (RFC 6749).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import {
  authorizeUrl,
  createWorld,
  InjectBrowser,
  PARTNER_REDIRECT,
  redirectParams,
  type World,
} from '../../test/helpers/web.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('GET /oauth2/auth parameters', () => {
  const t = useTestApp();
  let world: World;
  beforeAll(async () => {
    world = await createWorld(t.deps);
  });

  const get = (params: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: authorizeUrl(params), headers: { host: 'gable.test' } });
  const partner = (extra: Record<string, string> = {}) => ({
    client_id: world.partner.client_id,
    redirect_uri: PARTNER_REDIRECT,
    response_type: 'code',
    state: 'xyz',
    ...extra,
  });

  it('shows an error page, not a redirect, without client_id', async () => {
    const res = await get({ redirect_uri: PARTNER_REDIRECT, response_type: 'code' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('Missing application');
  });

  it('shows an error page for an unknown client', async () => {
    const res = await get({ client_id: 'nobody', redirect_uri: PARTNER_REDIRECT, response_type: 'code' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Unknown application');
  });

  it('shows an error page for a redirect_uri that is not registered or missing', async () => {
    for (const redirect of [
      'http://127.0.0.1:4999/callback/other',
      'https://evil.example/cb',
      `${PARTNER_REDIRECT}/`,
    ]) {
      const res = await get(partner({ redirect_uri: redirect }));
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('not registered');
    }
    const missing = await get({ client_id: world.partner.client_id, response_type: 'code' });
    expect(missing.statusCode).toBe(400);
    expect(missing.headers.location).toBeUndefined();
  });

  it('redirects a missing or unknown response_type with an error and the state', async () => {
    const missing = await get({ client_id: world.partner.client_id, redirect_uri: PARTNER_REDIRECT, state: 'abc' });
    expect(missing.statusCode).toBe(302);
    expect(redirectParams(missing).query.get('error')).toBe('invalid_request');
    expect(redirectParams(missing).query.get('state')).toBe('abc');
    const unknown = await get(partner({ response_type: 'code id_token' }));
    expect(redirectParams(unknown).query.get('error')).toBe('unsupported_response_type');
    expect(redirectParams(unknown).query.get('error_description')).toBeTruthy();
    expect(redirectParams(unknown).query.get('state')).toBe('xyz');
  });

  it('refuses first-party clients with unauthorized_client', async () => {
    const res = await get({ ...partner(), client_id: world.firstParty.client_id });
    expect(res.statusCode).toBe(302);
    expect(redirectParams(res).query.get('error')).toBe('unauthorized_client');
  });

  it('puts errors of response_type=token in the fragment', async () => {
    const res = await get(partner({ response_type: 'token', scope: 'bad"scope' }));
    expect(res.statusCode).toBe(302);
    const { query, fragment } = redirectParams(res);
    expect(query.get('error')).toBeNull();
    expect(fragment.get('error')).toBe('invalid_scope');
    expect(fragment.get('state')).toBe('xyz');
  });

  it('refuses repeated parameters', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${authorizeUrl(partner())}&state=again`,
      headers: { host: 'gable.test' },
    });
    expect(redirectParams(res).query.get('error')).toBe('invalid_request');
    const twoClients = await t.app.inject({
      method: 'GET',
      url: `${authorizeUrl(partner())}&client_id=x`,
      headers: { host: 'gable.test' },
    });
    expect(twoClients.statusCode).toBe(400);
  });

  it('requires PKCE from public clients using response_type=code', async () => {
    const res = await get({ ...partner(), client_id: world.publicClient.client_id });
    expect(res.statusCode).toBe(302);
    expect(redirectParams(res).query.get('error')).toBe('invalid_request');
    expect(redirectParams(res).query.get('error_description')).toContain('PKCE');
    const withPkce = await get({
      ...partner({ code_challenge: CHALLENGE, code_challenge_method: 'S256' }),
      client_id: world.publicClient.client_id,
    });
    expect(withPkce.statusCode).toBe(200);
    // the implicit flow has no code to bind a challenge to
    const implicit = await get({ ...partner({ response_type: 'token' }), client_id: world.publicClient.client_id });
    expect(implicit.statusCode).toBe(200);
  });

  it('accepts only S256 challenges', async () => {
    const cases: Record<string, string>[] = [
      { code_challenge: CHALLENGE },
      { code_challenge: CHALLENGE, code_challenge_method: 'plain' },
      { code_challenge: 'short', code_challenge_method: 'S256' },
      { code_challenge_method: 'S256' },
    ];
    for (const extra of cases) {
      const res = await get(partner(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(302);
      expect(redirectParams(res).query.get('error')).toBe('invalid_request');
    }
  });

  it('keeps the query of a registered redirect URI when adding its parameters', async () => {
    const res = await get(partner({ redirect_uri: 'https://partner.example/cb?tenant=7', response_type: 'bogus' }));
    expect(res.headers.location).toMatch(/^https:\/\/partner\.example\/cb\?tenant=7&error=unsupported_response_type&/);
  });

  it('shows the sign-in page, with a session cookie and page headers, for a valid request', async () => {
    const browser = new InjectBrowser(t.app);
    const res = await browser.get(authorizeUrl(partner()));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="en">');
    expect(res.body).toContain('Listing Syndicator');
    expect(res.body).toMatch(/<label for="email">/);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/gable_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('documents GET /oauth2/auth in OpenAPI, and none of the form steps', async () => {
    const paths = Object.keys((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths);
    expect(paths).toContain('/oauth2/auth');
    expect(paths.filter((p) => p.startsWith('/oauth2/auth/'))).toEqual([]);
  });

  it('escapes what it shows', async () => {
    const client = await t.deps.db
      .insertInto('oauth_clients')
      .values({
        client_id: 'xss-client',
        secret_hash: null,
        name: '<script>alert(1)</script>',
        kind: 'partner',
        redirect_uris: [PARTNER_REDIRECT],
        grants: ['authorization_code', 'implicit'],
        deleted_at: null,
      })
      .returning('client_id')
      .executeTakeFirstOrThrow();
    const res = await get(partner({ client_id: client.client_id }));
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
