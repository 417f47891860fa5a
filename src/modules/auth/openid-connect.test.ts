// OpenID Connect on the code flow (issue 33, docs/openid-connect.md): discovery, JWKS, the id_token of a sign-in
// through the real pages, userinfo by scope, refresh, and requests without `openid` unchanged.
import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { addMembership, bearer, createUser } from '../../../test/helpers/factories.js';
import { codeFlow, ISSUER, verifyIdToken } from '../../../test/helpers/openid.js';
import { authorizeUrl, createWorld, InjectBrowser, PARTNER_REDIRECT, type World } from '../../../test/helpers/web.js';
import { runAdminCommand } from '../../../test/helpers/cli.js';
import { registerClientCommands } from './auth.cli.js';
import { createOAuthClient } from './clients.service.js';

describe('OpenID Connect', () => {
  const t = useTestApp();
  let world: World;
  beforeAll(async () => {
    world = await createWorld(t.deps);
    await t.deps.db
      .updateTable('users')
      .set({ phone_number: '+14155550123', email_confirmed: true })
      .where('id', '=', world.user.id)
      .execute();
  });
  const partner = () => ({ client_id: world.partner.client_id, client_secret: world.partner.client_secret });
  const userinfo = (token: string, method: 'GET' | 'POST' = 'GET') =>
    t.app.inject({ method, url: '/oauth2/userinfo', headers: bearer(token) });
  const refresh = (refreshToken: string) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: world.partner.client_id,
        client_secret: world.partner.client_secret!,
      },
    });

  it('publishes a discovery document beside the RFC 8414 metadata', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth2/auth`,
      token_endpoint: `${ISSUER}/oauth2/token`,
      userinfo_endpoint: `${ISSUER}/oauth2/userinfo`,
      jwks_uri: `${ISSUER}/oauth2/jwks`,
      response_types_supported: ['code', 'token', 'id_token', 'id_token token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256', 'ES256'],
      code_challenge_methods_supported: ['S256'],
      request_uri_parameter_supported: false,
    });
    expect(doc.claims_supported).toEqual(expect.arrayContaining(['sub', 'nonce', 'at_hash', 'amr', 'email', 'name']));
    // The identity scopes beside the API scopes (docs/oauth.md, Scopes).
    expect(doc.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'profile', 'email', 'phone', 'full', 'contacts:read', 'contacts:write']),
    );
    const rfc8414 = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
    expect(doc).toMatchObject(rfc8414);
  });

  it('publishes one RS256 and one ES256 public key, with kids and no private members', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/oauth2/jwks' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=600');
    const { keys } = res.json() as { keys: Record<string, string>[] };
    expect(keys.map((key) => [key.alg, key.kty, key.use])).toEqual([
      ['RS256', 'RSA', 'sig'],
      ['ES256', 'EC', 'sig'],
    ]);
    for (const key of keys) {
      expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(secret);
    }
  });

  it('answers an id_token for openid + nonce, verified against the JWKS, with the claims of the scopes', async () => {
    const tokens = await codeFlow(t.app, world, partner(), { scope: 'openid email profile', nonce: 'n-0S6_WzA2Mj' });
    expect(tokens.id_token).toBeTruthy();
    const { payload, protectedHeader } = await verifyIdToken(t.app, tokens.id_token!, world.partner.client_id);
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    const atHash = createHash('sha256').update(tokens.access_token).digest().subarray(0, 16).toString('base64url');
    const now = Math.floor(t.clock.now().getTime() / 1000);
    expect(payload).toEqual({
      iss: ISSUER,
      sub: world.user.id,
      aud: world.partner.client_id,
      iat: now,
      exp: now + 3600,
      auth_time: now,
      nonce: 'n-0S6_WzA2Mj',
      at_hash: atHash,
      amr: ['pwd'],
      email: world.user.email,
      email_verified: true,
      name: 'Ada Agent',
      given_name: 'Ada',
      family_name: 'Agent',
    });

    for (const method of ['GET', 'POST'] as const) {
      const info = await userinfo(tokens.access_token, method);
      expect(info.statusCode).toBe(200);
      expect(info.headers['cache-control']).toBe('no-store');
      expect(info.json()).toEqual({
        sub: world.user.id,
        email: world.user.email,
        email_verified: true,
        name: 'Ada Agent',
        given_name: 'Ada',
        family_name: 'Agent',
      });
    }
  });

  it('releases only what the scope names: openid alone is sub; phone adds the phone number', async () => {
    const bare = await codeFlow(t.app, world, partner(), { scope: 'openid' });
    const { payload } = await verifyIdToken(t.app, bare.id_token!, world.partner.client_id);
    expect(payload).not.toHaveProperty('email');
    expect(payload).not.toHaveProperty('nonce');
    expect((await userinfo(bare.access_token)).json()).toEqual({ sub: world.user.id });

    const phone = await codeFlow(t.app, world, partner(), { scope: 'phone openid' });
    expect((await userinfo(phone.access_token)).json()).toEqual({
      sub: world.user.id,
      phone_number: '+14155550123',
      phone_number_verified: false,
    });
  });

  it('answers no id_token without openid, and userinfo refuses such a token: 403 insufficient_scope', async () => {
    for (const params of [{}, { scope: 'email profile' }] as Record<string, string>[]) {
      const tokens = await codeFlow(t.app, world, partner(), params);
      expect(tokens).not.toHaveProperty('id_token');
      const info = await userinfo(tokens.access_token);
      expect(info.statusCode).toBe(403);
      expect(info.headers['www-authenticate']).toMatch(/^Bearer error="insufficient_scope"/);
      expect(info.json()).toMatchObject({ http: 403, code: 'AccessForbidden', error: 'insufficient_scope' });
      const refreshed = await refresh(tokens.refresh_token);
      expect(refreshed.statusCode).toBe(200);
      expect(refreshed.json()).not.toHaveProperty('id_token');
    }
  });

  it('answers userinfo without a token or with a bad one 401, with a Bearer challenge', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/oauth2/userinfo' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const bad = await userinfo('not-a-token');
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('refreshes an openid login with a new id_token: same sub, aud and auth_time, a new iat, no nonce', async () => {
    const tokens = await codeFlow(t.app, world, partner(), { scope: 'openid email', nonce: 'first' });
    const first = (await verifyIdToken(t.app, tokens.id_token!, world.partner.client_id)).payload;
    t.clock.advance(120);
    const refreshed = await refresh(tokens.refresh_token);
    expect(refreshed.statusCode).toBe(200);
    const body = refreshed.json();
    const { payload } = await verifyIdToken(t.app, body.id_token, world.partner.client_id);
    expect(payload).toMatchObject({
      sub: first.sub,
      aud: first.aud,
      auth_time: first.auth_time,
      iat: first.iat! + 120,
    });
    expect(payload).not.toHaveProperty('nonce');
    expect(payload.at_hash).toBe(
      createHash('sha256').update(body.access_token).digest().subarray(0, 16).toString('base64url'),
    );
    expect((await userinfo(body.access_token)).json()).toMatchObject({ email: world.user.email });
  });

  it('fails verification of a tampered id_token', async () => {
    const tokens = await codeFlow(t.app, world, partner(), { scope: 'openid' });
    const [header, body, signature] = tokens.id_token!.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: world.other.id })).toString('base64url');
    await expect(verifyIdToken(t.app, `${header}.${forged}.${signature}`, world.partner.client_id)).rejects.toThrow(
      /signature verification failed/,
    );
    await expect(verifyIdToken(t.app, tokens.id_token!, 'another-client')).rejects.toThrow(/aud/);
  });

  it('signs ES256 for a client registered with id_token_signed_response_alg ES256', async () => {
    const client = await createOAuthClient(t.deps.db, {
      name: 'EC partner',
      kind: 'partner',
      redirectUris: [PARTNER_REDIRECT],
      idTokenSignedResponseAlg: 'ES256',
    });
    const tokens = await codeFlow(t.app, world, client, { scope: 'openid' });
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('ES256');
    const { protectedHeader } = await verifyIdToken(t.app, tokens.id_token!, client.client_id);
    const jwks = (await t.app.inject({ method: 'GET', url: '/oauth2/jwks' })).json();
    const ec = jwks.keys.find((key: { alg: string }) => key.alg === 'ES256');
    expect(protectedHeader.kid).toBe(ec.kid);
  });

  it('registers the alg with `gable admin client create --id-token-alg`, refusing one it cannot sign', async () => {
    const run = (...args: string[]) => runAdminCommand(registerClientCommands, t.deps, ...args);
    const base = ['client', 'create', '--name', 'EC', '--kind', 'partner', '--redirect-uri', PARTNER_REDIRECT];
    const created = await run(...base, '--id-token-alg', 'ES256', '--json');
    expect(JSON.parse(created.out)).toMatchObject({ id_token_signed_response_alg: 'ES256' });
    const refused = await run(...base, '--id-token-alg', 'HS256');
    expect(refused.exitCode).toBe(1);
    expect(refused.err).toContain('--id-token-alg must be one of RS256, ES256');
  });

  it('says amr pwd and otp after the TOTP step, and auth_time is the sign-in, not the approval', async () => {
    const secret = new Secret({ size: 20 });
    const user = await createUser(t.deps, { first_name: 'Mo', last_name: 'Factor' });
    await addMembership(t.deps, user.id, world.brokerage.id);
    await t.deps.db
      .updateTable('users')
      .set({ mfa_enabled: true, mfa_secret: t.deps.secrets.encrypt(secret.base32) })
      .where('id', '=', user.id)
      .execute();
    const signedInAt = Math.floor(t.clock.now().getTime() / 1000);
    const tokens = await codeFlow(t.app, { ...world, user }, partner(), { scope: 'openid' }, async (browser, p) => {
      const start = await browser.get(authorizeUrl(p));
      const mfa = await browser.follow(
        await browser.submit(start, '/oauth2/auth/sign-in', {
          email: user.email,
          password: 'correct horse battery staple',
        }),
      );
      t.clock.advance(40);
      const code = TOTP.generate({
        secret,
        algorithm: 'SHA1',
        digits: 6,
        period: 30,
        timestamp: t.clock.now().getTime(),
      });
      return browser.follow(await browser.submit(mfa, '/oauth2/auth/mfa', { code }));
    });
    const { payload } = await verifyIdToken(t.app, tokens.id_token!, world.partner.client_id);
    expect(payload).toMatchObject({ sub: user.id, amr: ['pwd', 'otp'], auth_time: signedInAt });
  });

  it('refuses a nonce longer than 512 characters back to the redirect URI', async () => {
    const browser = new InjectBrowser(t.app);
    const res = await browser.get(
      authorizeUrl({
        client_id: world.partner.client_id,
        redirect_uri: PARTNER_REDIRECT,
        response_type: 'code',
        scope: 'openid',
        nonce: 'n'.repeat(513),
        state: 's',
      }),
    );
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('s');
  });
});
