// OpenID Connect on the sign-in pages (issue 33, docs/openid-connect.md): prompt, max_age and login_hint, and the
// implicit id_token response types with their required nonce.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { bearer } from '../../test/helpers/factories.js';
import { verifyIdToken } from '../../test/helpers/openid.js';
import {
  authorizeUrl,
  createWorld,
  InjectBrowser,
  PARTNER_REDIRECT,
  redirectParams,
  startSignedIn,
  type World,
} from '../../test/helpers/web.js';

describe('OpenID Connect on the authorization pages', () => {
  const t = useTestApp();
  let world: World;
  beforeAll(async () => {
    world = await createWorld(t.deps);
  });
  const request = (params: Record<string, string> = {}) => ({
    client_id: world.partner.client_id,
    redirect_uri: PARTNER_REDIRECT,
    response_type: 'code',
    state: 'st-1',
    brandId: world.brokerage.id,
    scope: 'openid email',
    ...params,
  });
  const isSignIn = (body: string) => body.includes('action="/oauth2/auth/sign-in"');
  const isConsent = (body: string) => body.includes('value="approve"');
  const isPicker = (body: string) => body.includes('action="/oauth2/auth/brand"');

  /** A browser whose session is signed in (the first request stopped at consent). */
  async function signedInBrowser() {
    const browser = new InjectBrowser(t.app);
    const consent = await startSignedIn(browser, world, request());
    expect(isConsent(consent.body)).toBe(true);
    return browser;
  }

  /** The error of a redirect back to the partner, from its query or fragment. */
  const redirectError = (res: Awaited<ReturnType<InjectBrowser['get']>>, where: 'query' | 'fragment' = 'query') => {
    expect(res.statusCode).toBe(302);
    const { url, query, fragment } = redirectParams(res);
    expect(`${url.origin}${url.pathname}`).toBe(PARTNER_REDIRECT);
    const params = where === 'query' ? query : fragment;
    return { error: params.get('error'), description: params.get('error_description'), state: params.get('state') };
  };

  describe('prompt=none', () => {
    it('without a session answers login_required to the redirect URI, and sets no cookie', async () => {
      const browser = new InjectBrowser(t.app);
      const res = await browser.get(authorizeUrl(request({ prompt: 'none' })));
      expect(redirectError(res)).toMatchObject({ error: 'login_required', state: 'st-1' });
      expect(browser.cookies.size).toBe(0);
    });

    it('with a session nobody signed in on answers login_required', async () => {
      const browser = new InjectBrowser(t.app);
      await browser.get(authorizeUrl(request()));
      // a session with no user at all: the sign-in page was shown but never submitted
      const res = await browser.get(authorizeUrl(request({ prompt: 'none' })));
      expect(redirectError(res).error).toBe('login_required');
    });

    it('with a signed-in session answers consent_required (every authorization is approved on the page)', async () => {
      const browser = await signedInBrowser();
      const res = await browser.get(authorizeUrl(request({ prompt: 'none', state: 'st-2' })));
      expect(redirectError(res)).toMatchObject({ error: 'consent_required', state: 'st-2' });
    });

    it('with max_age shorter than the sign-in answers login_required', async () => {
      const browser = await signedInBrowser();
      t.clock.advance(120);
      const res = await browser.get(authorizeUrl(request({ prompt: 'none', max_age: '60' })));
      expect(redirectError(res).error).toBe('login_required');
    });

    it('answers in the fragment for the implicit response types', async () => {
      const browser = new InjectBrowser(t.app);
      const res = await browser.get(
        authorizeUrl(request({ prompt: 'none', response_type: 'id_token token', nonce: 'n-1' })),
      );
      expect(redirectError(res, 'fragment').error).toBe('login_required');
    });
  });

  it('prompt=login asks for the password again, and the id_token’s auth_time is the new sign-in', async () => {
    const browser = await signedInBrowser();
    const first = t.clock.now();
    t.clock.advance(600);
    const again = await browser.get(authorizeUrl(request({ prompt: 'login', nonce: 'n-login' })));
    expect(again.statusCode).toBe(200);
    expect(isSignIn(again.body)).toBe(true);
    const { payload } = await approveAndExchange(
      browser,
      await browser.follow(
        await browser.submit(again, '/oauth2/auth/sign-in', {
          email: world.user.email,
          password: 'correct horse battery staple',
        }),
      ),
    );
    expect(payload.auth_time).toBe(Math.floor(first.getTime() / 1000) + 600);
    expect(payload.nonce).toBe('n-login');
  });

  it('max_age keeps a recent sign-in and asks again for an older one', async () => {
    const browser = await signedInBrowser();
    t.clock.advance(30);
    const recent = await browser.get(authorizeUrl(request({ max_age: '300' })));
    expect(isConsent(recent.body)).toBe(true);
    t.clock.advance(300);
    const old = await browser.get(authorizeUrl(request({ max_age: '300' })));
    expect(isSignIn(old.body)).toBe(true);
    expect(isConsent(old.body)).toBe(false);
  });

  it('login_hint starts the sign-in form with the email; a bad password keeps what was typed', async () => {
    const browser = new InjectBrowser(t.app);
    const page = await browser.get(authorizeUrl(request({ login_hint: 'ada@example.test' })));
    expect(page.body).toMatch(/name="email"[^>]*value="ada@example\.test"/);
  });

  it('prompt=select_account shows the brand picker even when the client named a brand', async () => {
    const browser = await signedInBrowser();
    const page = await browser.get(authorizeUrl(request({ prompt: 'select_account' })));
    expect(isPicker(page.body)).toBe(true);
    expect(page.body).toContain('Use another account');
  });

  it('prompt=consent shows the consent page, as every request does', async () => {
    const browser = await signedInBrowser();
    expect(isConsent((await browser.get(authorizeUrl(request({ prompt: 'consent' })))).body)).toBe(true);
  });

  it.each([
    [{ prompt: 'none login' }, 'prompt=none cannot be combined'],
    [{ prompt: 'silent' }, 'prompt must be'],
    [{ max_age: '-1' }, 'max_age must be'],
    [{ max_age: '1h' }, 'max_age must be'],
    [{ login_hint: `${'a'.repeat(250)}@example.test` }, 'login_hint must be at most'],
  ])('refuses %j with invalid_request to the redirect URI', async (params, message) => {
    const res = await new InjectBrowser(t.app).get(authorizeUrl(request(params)));
    const error = redirectError(res);
    expect(error.error).toBe('invalid_request');
    expect(error.description).toContain(message);
    expect(error.state).toBe('st-1');
  });

  describe('implicit id_token', () => {
    const implicit = (params: Record<string, string>) =>
      request({ response_type: 'id_token token', nonce: 'n-implicit', scope: 'openid email', ...params });

    it('refuses a request without nonce, or without openid, with invalid_request in the fragment', async () => {
      for (const responseType of ['id_token', 'id_token token', 'token id_token']) {
        const withoutNonce = implicit({ response_type: responseType });
        delete (withoutNonce as Record<string, string>).nonce;
        const res = await new InjectBrowser(t.app).get(authorizeUrl(withoutNonce));
        expect(redirectError(res, 'fragment')).toEqual({
          error: 'invalid_request',
          description: `nonce is required with response_type=${responseType === 'id_token' ? 'id_token' : 'id_token token'}`,
          state: 'st-1',
        });
      }
      const noOpenid = await new InjectBrowser(t.app).get(authorizeUrl(implicit({ scope: 'email' })));
      expect(redirectError(noOpenid, 'fragment').error).toBe('invalid_request');
    });

    it('refuses the hybrid code id_token (not supported) and a client without implicit', async () => {
      const hybrid = await new InjectBrowser(t.app).get(authorizeUrl(implicit({ response_type: 'code id_token' })));
      expect(redirectError(hybrid).error).toBe('unsupported_response_type');
      await t.deps.db
        .updateTable('oauth_clients')
        .set({ grants: ['authorization_code', 'refresh_token'] })
        .where('id', '=', world.publicClient.id)
        .execute();
      const notOptedIn = await new InjectBrowser(t.app).get(
        authorizeUrl(implicit({ client_id: world.publicClient.client_id })),
      );
      expect(redirectError(notOptedIn, 'fragment').error).toBe('unauthorized_client');
    });

    it('id_token token: an access token and an id_token with nonce and at_hash in the fragment', async () => {
      const browser = new InjectBrowser(t.app);
      const consent = await startSignedIn(browser, world, implicit({}));
      const approved = await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' });
      const { fragment, query } = redirectParams(approved);
      expect([...query.keys()]).toEqual([]);
      const accessToken = fragment.get('access_token')!;
      expect(fragment.get('token_type')).toBe('Bearer');
      expect(fragment.get('state')).toBe('st-1');
      expect(fragment.get('brand')).toBe(world.brokerage.id);
      const { payload } = await verifyIdToken(t.app, fragment.get('id_token')!, world.partner.client_id, t.clock.now());
      expect(payload).toMatchObject({
        sub: world.user.id,
        nonce: 'n-implicit',
        email: world.user.email,
        amr: ['pwd'],
        at_hash: createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url'),
      });
      // The access token's login asked for openid: userinfo answers it.
      const info = await t.app.inject({ method: 'GET', url: '/oauth2/userinfo', headers: bearer(accessToken) });
      expect(info.json()).toEqual({ sub: world.user.id, email: world.user.email, email_verified: false });
    });

    it('id_token alone: the consent page speaks of identity and the scoped claims, not API access', async () => {
      const browser = new InjectBrowser(t.app);
      const consent = await startSignedIn(
        browser,
        world,
        implicit({ response_type: 'id_token', scope: 'openid profile email' }),
      );
      expect(isConsent(consent.body)).toBe(true);
      const items = [...consent.body.matchAll(/<li data-scope="([^"]+)">/g)].map((m) => m[1]);
      expect(items).toEqual(['openid', 'profile', 'email']);
      expect(consent.body).toContain('Know who you are');
      expect(consent.body).toContain('See your name');
      expect(consent.body).toContain('See your email address');
      expect(consent.body).not.toContain('See your phone number');
      expect(consent.body).toContain('gets no access to your account');
      // None of the API words of an access-token approval, nor its duration.
      expect(consent.body).not.toContain('Read and change what you can');
      expect(consent.body).not.toContain('31 days');
      expect(consent.body).not.toContain('revoke its access');
      // With an access token beside it the page still says what that token may do.
      const withToken = await startSignedIn(new InjectBrowser(t.app), world, implicit({}));
      expect(withToken.body).toContain('Read and change what you can');
      expect(withToken.body).toContain('31 days');
    });

    it('id_token alone: no access token, no at_hash', async () => {
      const browser = new InjectBrowser(t.app);
      const consent = await startSignedIn(browser, world, implicit({ response_type: 'id_token' }));
      const approved = await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' });
      const { fragment } = redirectParams(approved);
      expect(fragment.has('access_token')).toBe(false);
      const { payload } = await verifyIdToken(t.app, fragment.get('id_token')!, world.partner.client_id, t.clock.now());
      expect(payload.nonce).toBe('n-implicit');
      expect(payload).not.toHaveProperty('at_hash');
    });
  });

  /** Approves at the consent page and exchanges the code; the id_token verified. */
  async function approveAndExchange(browser: InjectBrowser, consent: Awaited<ReturnType<InjectBrowser['get']>>) {
    expect(isConsent(consent.body)).toBe(true);
    const approved = await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' });
    const code = redirectParams(approved).query.get('code')!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: PARTNER_REDIRECT,
        client_id: world.partner.client_id,
        client_secret: world.partner.client_secret!,
      },
    });
    expect(res.statusCode).toBe(200);
    return verifyIdToken(t.app, res.json().id_token, world.partner.client_id, t.clock.now());
  }
});
