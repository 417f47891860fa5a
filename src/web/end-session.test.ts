// RP-initiated logout (issue 33, docs/openid-connect.md): the end_session_endpoint ends the pages' sign-in and
// sends the browser only to a post_logout_redirect_uri registered for the client.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { createClient } from '../../test/helpers/factories.js';
import { codeFlow, ISSUER } from '../../test/helpers/openid.js';
import {
  authorizeUrl,
  createWorld,
  InjectBrowser,
  PARTNER_REDIRECT,
  startSignedIn,
  type World,
} from '../../test/helpers/web.js';

const AFTER_LOGOUT = 'https://partner.example/signed-out';

describe('RP-initiated logout', () => {
  const t = useTestApp();
  let world: World;
  let partner: Awaited<ReturnType<typeof createClient>>;
  let other: Awaited<ReturnType<typeof createClient>>;
  beforeAll(async () => {
    world = await createWorld(t.deps);
    partner = await createClient(t.deps, 'partner', {
      redirect_uris: [PARTNER_REDIRECT],
      post_logout_redirect_uris: [AFTER_LOGOUT],
    });
    other = await createClient(t.deps, 'partner', { redirect_uris: [PARTNER_REDIRECT] });
  });

  /** A browser signed in on the pages, and the id_token its code flow answered. */
  async function signedIn(client = partner) {
    let browser!: InjectBrowser;
    const tokens = await codeFlow(t.app, world, client, { scope: 'openid' }, (b, params) => {
      browser = b;
      return startSignedIn(b, world, params);
    });
    return { browser, idToken: tokens.id_token!, tokens };
  }
  const logoutUrl = (params: Record<string, string>) => `/oauth2/logout?${new URLSearchParams(params)}`;
  /** Whether the browser's session still has a user: a new request stops at consent, not at sign-in. */
  const stillSignedIn = async (browser: InjectBrowser) => {
    const page = await browser.get(
      authorizeUrl({
        client_id: partner.client_id,
        redirect_uri: PARTNER_REDIRECT,
        response_type: 'code',
        brandId: world.brokerage.id,
      }),
    );
    return !page.body.includes('action="/oauth2/auth/sign-in"');
  };

  it('is published in discovery', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json();
    expect(doc.end_session_endpoint).toBe(`${ISSUER}/oauth2/logout`);
    expect(doc.prompt_values_supported).toEqual(['none', 'login', 'consent', 'select_account']);
  });

  it('with the user’s id_token_hint: signs out and redirects to the registered URI with state', async () => {
    const { browser, idToken, tokens } = await signedIn();
    const res = await browser.get(
      logoutUrl({ id_token_hint: idToken, post_logout_redirect_uri: AFTER_LOGOUT, state: 'bye-1' }),
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${AFTER_LOGOUT}?state=bye-1`);
    expect(await stillSignedIn(browser)).toBe(false);
    // The documented choice: the client's tokens are not revoked by the logout.
    const self = await t.app.inject({
      method: 'GET',
      url: '/users/self',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(self.statusCode).toBe(200);
  });

  it('POST with the hint works the same (form-serialised parameters)', async () => {
    const { browser, idToken } = await signedIn();
    const res = await browser.post('/oauth2/logout', {
      id_token_hint: idToken,
      client_id: partner.client_id,
      post_logout_redirect_uri: AFTER_LOGOUT,
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(AFTER_LOGOUT);
    expect(await stillSignedIn(browser)).toBe(false);
  });

  it('without a hint asks the user to confirm; the confirmation (with its CSRF token) signs out', async () => {
    const { browser } = await signedIn();
    const params = { client_id: partner.client_id, post_logout_redirect_uri: AFTER_LOGOUT, state: 's' };
    const confirm = await browser.get(logoutUrl(params));
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Sign out?');
    expect(await stillSignedIn(browser)).toBe(true);
    // A forged POST without the page's token only gets the confirmation again.
    const forged = await browser.post('/oauth2/logout', params);
    expect(forged.statusCode).toBe(200);
    expect(await stillSignedIn(browser)).toBe(true);
    const csrf = /name="csrf" value="([^"]+)"/.exec(confirm.body)![1]!;
    const done = await browser.post('/oauth2/logout', { ...params, csrf });
    expect(done.headers.location).toBe(`${AFTER_LOGOUT}?state=s`);
    expect(await stillSignedIn(browser)).toBe(false);
  });

  it('without a session or a redirect URI: the signed-out page', async () => {
    const res = await new InjectBrowser(t.app).get(logoutUrl({ client_id: partner.client_id }));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('You are signed out');
  });

  it.each([
    ['an unregistered post_logout_redirect_uri', () => ({ post_logout_redirect_uri: 'https://evil.example/' })],
    ['a redirect URI (not a post-logout one)', () => ({ post_logout_redirect_uri: PARTNER_REDIRECT })],
    ['another client’s client_id beside the hint', () => ({ client_id: other.client_id })],
    ['an unknown client_id', () => ({ client_id: 'no-such-client' })],
  ])('refuses %s with an error page, signs nobody out, redirects nowhere', async (_name, extra) => {
    const { browser, idToken } = await signedIn();
    const res = await browser.get(
      logoutUrl({ id_token_hint: idToken, post_logout_redirect_uri: AFTER_LOGOUT, ...extra() }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(await stillSignedIn(browser)).toBe(true);
  });

  it('refuses an id_token issued for another client, a forged hint, and a redirect without a client', async () => {
    const { browser } = await signedIn();
    const { idToken: othersToken } = await signedIn(other);
    const forged = `${othersToken.slice(0, othersToken.lastIndexOf('.'))}.${'A'.repeat(86)}`;
    for (const params of <Record<string, string>[]>[
      { id_token_hint: othersToken, client_id: partner.client_id, post_logout_redirect_uri: AFTER_LOGOUT },
      { id_token_hint: othersToken, post_logout_redirect_uri: AFTER_LOGOUT },
      { id_token_hint: forged, post_logout_redirect_uri: AFTER_LOGOUT },
      { post_logout_redirect_uri: AFTER_LOGOUT },
    ]) {
      const res = await browser.get(logoutUrl(params));
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(res.headers.location).toBeUndefined();
    }
    expect(await stillSignedIn(browser)).toBe(true);
  });
});
