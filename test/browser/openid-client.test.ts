// OpenID Connect against a relying party no one here wrote (issue 33): panva's certified `openid-client` drives
// discovery, the code flow with PKCE and nonce through Gable's real pages in Chromium, checks the id_token against
// the JWKS, reads userinfo, refreshes, introspects, and ends the session. Any step the library disagrees with
// throws, and fails the test.
import { chromium, type Browser } from 'playwright-core';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createBrand, createClient, createUser, TEST_PASSWORD } from '../helpers/factories.js';
import { startGable, type RunningGable } from './gable-server.js';

/** Never reached over the network: Chromium's requests to it are answered by the test (page.route). */
const CALLBACK = 'http://127.0.0.1:4999/oidc/callback';
const AFTER_LOGOUT = 'http://127.0.0.1:4999/oidc/signed-out';

describe('openid-client against Gable in Chromium', () => {
  let gable: RunningGable;
  let browser: Browser;
  const started: { close(): Promise<unknown> }[] = [];

  beforeAll(async () => {
    gable = await startGable();
    started.push(gable);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
    started.push(browser);
  });
  afterAll(async () => {
    for (const running of started.reverse()) await running.close();
  });

  it('discovery, code + PKCE + nonce, id_token, userinfo, refresh, introspection and logout', async () => {
    const deps = gable.deps;
    const brand = await createBrand(deps, { name: 'Acme Realty' });
    const user = await createUser(deps, { first_name: 'Ada', last_name: 'Agent', email: 'ada@oidc.example' });
    await addMembership(deps, user.id, brand.id);
    const client = await createClient(deps, 'partner', {
      name: 'Sign in with Acme',
      redirect_uris: [CALLBACK],
      post_logout_redirect_uris: [AFTER_LOGOUT],
      introspect: true,
    });

    // Discovery: the library checks that the document's issuer is the URL it was given.
    const config = await oidc.discovery(new URL(gable.url), client.client_id, client.client_secret!, undefined, {
      execute: [oidc.allowInsecureRequests], // loopback http only; production runs behind TLS
    });
    expect(config.serverMetadata().end_session_endpoint).toBe(`${gable.url}/oauth2/logout`);

    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      login_hint: user.email,
    });

    const page = await (await browser.newContext()).newPage();
    await page.route('http://127.0.0.1:4999/**', (route) => route.fulfill({ status: 200, body: 'partner page' }));
    await page.goto(authorizationUrl.href);
    // login_hint: the email is already there.
    expect(await page.getByLabel('Email').inputValue()).toBe(user.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('radio', { name: /^Acme Realty/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${CALLBACK}?**`);

    // The exchange: the library validates the id_token (signature against the JWKS, iss, aud, exp, iat, nonce).
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ sub: user.id, aud: client.client_id, email: user.email, amr: ['pwd'] });

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: user.id, email: user.email, name: 'Ada Agent' });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.claims()).toMatchObject({ sub: user.id, auth_time: claims.auth_time });

    const live = await oidc.tokenIntrospection(config, refreshed.access_token);
    expect(live).toMatchObject({ active: true, client_id: client.client_id, sub: user.id, brand: brand.id });
    const rotated = await oidc.tokenIntrospection(config, tokens.refresh_token!);
    expect(rotated.active).toBe(false);

    // RP-initiated logout: the hint names the signed-in user, so no confirmation; back to the client with state.
    const logoutState = oidc.randomState();
    const endSession = oidc.buildEndSessionUrl(config, {
      id_token_hint: refreshed.id_token!,
      post_logout_redirect_uri: AFTER_LOGOUT,
      state: logoutState,
    });
    // The redirect that follows a navigation is not routed by page.route: watch for the request instead.
    const back = page.waitForRequest((request) => request.url().startsWith(AFTER_LOGOUT));
    await page.goto(endSession.href).catch(() => undefined);
    expect(new URL((await back).url()).searchParams.get('state')).toBe(logoutState);

    // The browser's sign-in is over: a silent request is answered login_required.
    const silent = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      prompt: 'none',
    });
    const answered = page.waitForRequest((request) => request.url().startsWith(CALLBACK));
    await page.goto(silent.href).catch(() => undefined);
    await expect(
      oidc.authorizationCodeGrant(config, new URL((await answered).url()), {
        pkceCodeVerifier: codeVerifier,
        expectedState: state,
      }),
    ).rejects.toMatchObject({ error: 'login_required' });
    await page.context().close();
  });
});
