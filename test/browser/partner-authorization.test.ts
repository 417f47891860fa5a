// The partner authorization pages in a real browser: code flow (public client, PKCE), implicit flow,
// brand preselection, the MFA step and decline, each ending at a partner app that uses the token.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { addMembership, createBrand, createClient, createUser, TEST_PASSWORD } from '../helpers/factories.js';
import { setBrandHostnames } from '../../src/modules/brands/hostnames.service.js';
import { startGable, type RunningGable } from './gable-server.js';
import { startPartnerApp, type PartnerApp } from './partner-app.js';

const SCREENSHOTS = 'test-artifacts/browser';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];
/** A white-label host name, resolved to the loopback app by the browser itself (no DNS, no /etc/hosts). */
const WHITE_LABEL_HOST = 'login.acme-realty.test';

describe('partner authorization in Chromium', () => {
  let gable: RunningGable;
  let partnerApp: PartnerApp;
  let browser: Browser;
  // What beforeAll started, closed in reverse order (afterAll also runs when beforeAll failed half way).
  const started: { close(): Promise<unknown> }[] = [];
  let page: Page;
  let world: Awaited<ReturnType<typeof createWorld>>;

  async function createWorld() {
    const deps = gable.deps;
    const brokerage = await createBrand(deps, { name: 'Acme Realty' });
    const office = await createBrand(deps, { name: 'Acme Downtown', parent: brokerage.id });
    const team = await createBrand(deps, { name: 'Harbor Team', parent: office.id });
    const user = await createUser(deps, { first_name: 'Ada', last_name: 'Agent', email: 'ada@acme.example' });
    await addMembership(deps, user.id, brokerage.id);
    const redirect_uris = [partnerApp.callbackUrl, partnerApp.implicitUrl];
    const partner = await createClient(deps, 'partner', { name: 'Listing Syndicator', redirect_uris });
    const publicClient = await createClient(deps, 'public', { name: 'Showing Planner', redirect_uris });
    return { brokerage, office, team, user, partner, publicClient };
  }

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    gable = await startGable();
    started.push(gable);
    partnerApp = await startPartnerApp(gable.url);
    started.push(partnerApp);
    world = await createWorld();
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${WHITE_LABEL_HOST} 127.0.0.1`],
    });
    started.push(browser);
  });
  afterAll(async () => {
    for (const running of started.reverse()) await running.close();
  });
  // A fresh browser context per test: no cookies carried over.
  beforeEach(async () => {
    page = await (await browser.newContext({ viewport: { width: 1024, height: 800 } })).newPage();
  });
  afterEach(async () => page.context().close());

  const authorizeUrl = (params: Record<string, string>) => `${gable.url}/oauth2/auth?${new URLSearchParams(params)}`;
  const shot = (name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
  const signIn = async (email: string, password = TEST_PASSWORD) => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  const outcome = () => page.locator('#outcome').textContent();

  it('code flow with PKCE: sign in, pick a brand, approve, the partner exchanges the code and calls the API', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(8).toString('hex');
    partnerApp.expect(state, world.publicClient, verifier);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    await page.goto(
      authorizeUrl({
        client_id: world.publicClient.client_id,
        redirect_uri: partnerApp.callbackUrl,
        response_type: 'code',
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    expect(await page.title()).toBe('Sign in · Gable');
    await shot('sign-in');

    await signIn(world.user.email, 'not my password');
    expect(await page.getByRole('alert').textContent()).toContain('incorrect');
    await shot('sign-in-error');
    await signIn(world.user.email);

    await page.getByRole('heading', { name: 'Choose a brand' }).waitFor();
    await shot('brand-picker');
    await page.getByRole('radio', { name: /^Acme Downtown/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { name: 'Allow Showing Planner to access Acme Downtown?' }).waitFor();
    await shot('consent');
    await page.getByRole('button', { name: 'Approve' }).click();

    await page.waitForURL(`${partnerApp.callbackUrl}?**`);
    expect(await outcome()).toBe('Connected');
    const result = partnerApp.results.find((r) => r.state === state)!;
    expect(result.brand).toBe(world.office.id);
    expect(result.tokenResponse).toMatchObject({ token_type: 'Bearer', expires_in: 2678400 });
    expect(result.selfStatus).toBe(200);
    expect(await page.locator('#email').textContent()).toBe(world.user.email);
    // the token is bound to the chosen brand: its parent is out of reach
    const parent = await fetch(`${gable.url}/users/self`, {
      headers: { authorization: `Bearer ${result.accessToken}`, 'x-rechat-brand': world.brokerage.id },
    });
    expect(parent.status).toBe(403);
  });

  it('implicit flow: the partner page reads the token from the fragment', async () => {
    const state = randomBytes(8).toString('hex');
    await page.goto(
      authorizeUrl({
        client_id: world.partner.client_id,
        redirect_uri: partnerApp.implicitUrl,
        response_type: 'token',
        state,
        brandId: world.brokerage.id,
      }),
    );
    await signIn(world.user.email);
    await page.getByRole('heading', { name: 'Allow Listing Syndicator to access Acme Realty?' }).waitFor();
    await shot('consent-implicit');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${partnerApp.implicitUrl}**`);
    await page.locator('#email').waitFor();
    expect(await outcome()).toBe('Connected');
    const result = partnerApp.results.find((r) => r.state === state)!;
    expect(result.tokenResponse).toMatchObject({
      token_type: 'Bearer',
      expires_in: '2678400',
      brand: world.brokerage.id,
    });
    expect(result.tokenResponse?.refresh_token).toBeUndefined();
    expect(result.selfStatus).toBe(200);
  });

  it('brand preselection: a brandId the user has skips the picker; approval is still asked', async () => {
    const state = randomBytes(8).toString('hex');
    partnerApp.expect(state, world.partner);
    await page.goto(
      authorizeUrl({
        client_id: world.partner.client_id,
        redirect_uri: partnerApp.callbackUrl,
        response_type: 'code',
        state,
        brandId: world.team.id,
      }),
    );
    await signIn(world.user.email);
    await page.getByRole('heading', { name: 'Allow Listing Syndicator to access Harbor Team?' }).waitFor();
    expect(await page.getByText('Choose a brand').count()).toBe(0);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${partnerApp.callbackUrl}?**`);
    expect(await page.locator('#brand').textContent()).toBe(world.team.id);
  });

  it('MFA: a user with TOTP enabled passes the code step, and the tokens start MFA-validated', async () => {
    const secret = new Secret({ size: 20 });
    const mfaUser = await createUser(gable.deps, { email: 'mfa.user@acme.example' });
    await addMembership(gable.deps, mfaUser.id, world.brokerage.id);
    await gable.deps.db
      .updateTable('users')
      .set({ mfa_enabled: true, mfa_secret: gable.deps.secrets.encrypt(secret.base32) })
      .where('id', '=', mfaUser.id)
      .execute();
    const state = randomBytes(8).toString('hex');
    partnerApp.expect(state, world.partner);
    await page.goto(
      authorizeUrl({
        client_id: world.partner.client_id,
        redirect_uri: partnerApp.callbackUrl,
        response_type: 'code',
        state,
        brandId: world.brokerage.id,
      }),
    );
    await signIn(mfaUser.email);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await shot('mfa');
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('not valid');
    await shot('mfa-error');
    // the app runs on the test's clock
    const code = TOTP.generate({
      secret,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      timestamp: gable.clock.now().getTime(),
    });
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`${partnerApp.callbackUrl}?**`);
    const result = partnerApp.results.find((r) => r.state === state)!;
    // an unvalidated MFA family would get 401 MFARequired here
    expect(result.selfStatus).toBe(200);
    expect(result.selfEmail).toBe(mfaUser.email);
  });

  it('decline: the partner receives access_denied and its state', async () => {
    const state = randomBytes(8).toString('hex');
    await page.goto(
      authorizeUrl({
        client_id: world.partner.client_id,
        redirect_uri: partnerApp.callbackUrl,
        response_type: 'code',
        state,
      }),
    );
    await signIn(world.user.email);
    await page.getByRole('radio', { name: 'Acme Realty', exact: true }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL(`${partnerApp.callbackUrl}?**`);
    expect(await page.locator('#error').textContent()).toBe('access_denied');
    expect(partnerApp.results.find((r) => r.state === state)?.error).toBe('access_denied');
  });

  it('white label: on the brand’s host the pages carry its name and the picker only its subtree', async () => {
    const other = await createBrand(gable.deps, { name: 'Elsewhere Brokerage' });
    await addMembership(gable.deps, world.user.id, other.id);
    await setBrandHostnames(gable.deps.db, world.brokerage.id, [WHITE_LABEL_HOST]);
    const port = new URL(gable.url).port;
    await page.goto(
      `http://${WHITE_LABEL_HOST}:${port}/oauth2/auth?${new URLSearchParams({ client_id: world.partner.client_id, redirect_uri: partnerApp.callbackUrl, response_type: 'code' })}`,
    );
    expect(await page.title()).toBe('Sign in · Acme Realty');
    await signIn(world.user.email);
    await page.getByRole('heading', { name: 'Choose a brand' }).waitFor();
    expect(await page.getByRole('radio').count()).toBe(3);
    expect(await page.getByText('Elsewhere Brokerage').count()).toBe(0);
    await shot('white-label-picker');
  });

  it('an unregistered redirect_uri shows an error page and goes nowhere', async () => {
    const response = await page.goto(
      authorizeUrl({
        client_id: world.partner.client_id,
        redirect_uri: 'https://attacker.example/cb',
        response_type: 'code',
      }),
    );
    expect(response?.status()).toBe(400);
    expect(page.url()).toContain(`${gable.url}/oauth2/auth`);
    await page.getByRole('heading', { name: 'Invalid request' }).waitFor();
    await shot('error-page');
  });
});
