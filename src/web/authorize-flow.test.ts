// The partner flow through the pages, end to end over inject: sign in → brand → consent → 302 to the
// partner; the code exchanged at POST /oauth2/token; the token bound to the chosen brand.
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { addMembership, bearer, createClient } from '../../test/helpers/factories.js';
import { hashToken } from '../lib/crypto.js';
import {
  authorizeUrl,
  createWorld,
  InjectBrowser,
  PARTNER_REDIRECT,
  redirectParams,
  startSignedIn,
  type World,
} from '../../test/helpers/web.js';

describe('partner authorization flow', () => {
  const t = useTestApp();
  let world: World;
  beforeAll(async () => {
    world = await createWorld(t.deps);
    await addMembership(t.deps, world.user.id, world.other.id);
  });

  const codeParams = (extra: Record<string, string> = {}) => ({
    client_id: world.partner.client_id,
    redirect_uri: PARTNER_REDIRECT,
    response_type: 'code',
    state: 'st-1',
    ...extra,
  });
  const pick = async (browser: InjectBrowser, picker: Awaited<ReturnType<InjectBrowser['get']>>, brand: string) =>
    browser.follow(await browser.submit(picker, '/oauth2/auth/brand', { brand }));
  const exchange = (fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        redirect_uri: PARTNER_REDIRECT,
        ...fields,
      }).toString(),
    });

  it('lists the reachable brands with their parents in the picker', async () => {
    const picker = await startSignedIn(new InjectBrowser(t.app), world, codeParams());
    expect(picker.body).toContain('Acme Realty');
    expect(picker.body).toContain('Acme Downtown');
    expect(picker.body).toContain('in Acme Realty');
    expect(picker.body).toContain('Other Brokerage');
    expect(picker.body).toContain('<fieldset');
  });

  it('issues a code for the chosen brand, which POST /oauth2/token exchanges once', async () => {
    const browser = new InjectBrowser(t.app);
    const picker = await startSignedIn(browser, world, codeParams());
    const consent = await pick(browser, picker, world.office.id);
    expect(consent.body).toContain('Allow Listing Syndicator to access Acme Downtown?');
    const res = await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' });
    expect(res.statusCode).toBe(302);
    const { url, query } = redirectParams(res);
    expect(`${url.origin}${url.pathname}`).toBe(PARTNER_REDIRECT);
    expect(query.get('brand')).toBe(world.office.id);
    expect(query.get('state')).toBe('st-1');
    const code = query.get('code')!;
    const row = await t.deps.db
      .selectFrom('authorization_codes')
      .selectAll()
      .where('code_hash', '=', hashToken(code))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      client: world.partner.id,
      user: world.user.id,
      brand: world.office.id,
      redirect_uri: PARTNER_REDIRECT,
      code_challenge: null,
      mfa_validated: true,
    });

    const tokens = await exchange({
      code,
      client_id: world.partner.client_id,
      client_secret: world.partner.client_secret!,
    });
    expect(tokens.statusCode).toBe(200);
    expect(tokens.json()).toMatchObject({ token_type: 'Bearer', expires_in: 2678400, brand: world.office.id });
    expect(tokens.json().refresh_token).toBeTruthy();
    expect(
      (await exchange({ code, client_id: world.partner.client_id, client_secret: world.partner.client_secret! }))
        .statusCode,
    ).toBe(400);
    // Approving again (double click, back button) issues nothing more
    const again = await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' });
    expect(again.statusCode).toBe(400);
  });

  it('keeps the query of a registered redirect URI when code and brand are appended (the WordPress plugin)', async () => {
    const wordpress = 'https://wp.example.com/wp-admin/admin.php?page=rechat-setting&tab=connect-to-rechat';
    const plugin = await createClient(t.deps, 'partner', { name: 'WordPress plugin', redirect_uris: [wordpress] });
    const browser = new InjectBrowser(t.app);
    const picker = await startSignedIn(browser, world, {
      client_id: plugin.client_id,
      redirect_uri: wordpress,
      response_type: 'code',
    });
    const consent = await pick(browser, picker, world.brokerage.id);
    const res = await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' });
    const { url, query } = redirectParams(res);
    expect(`${url.origin}${url.pathname}`).toBe('https://wp.example.com/wp-admin/admin.php');
    expect(query.get('page')).toBe('rechat-setting');
    expect(query.get('tab')).toBe('connect-to-rechat');
    expect(query.get('brand')).toBe(world.brokerage.id);
    const tokens = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: {
        grant_type: 'authorization_code',
        redirect_uri: wordpress,
        code: query.get('code')!,
        client_id: plugin.client_id,
        client_secret: plugin.client_secret!,
      },
    });
    expect(tokens.statusCode).toBe(200);
  });

  it('binds the token to the brand: another brand of the same user answers 403', async () => {
    const browser = new InjectBrowser(t.app);
    const consent = await pick(browser, await startSignedIn(browser, world, codeParams()), world.brokerage.id);
    const code = redirectParams(
      await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' }),
    ).query.get('code')!;
    const { access_token } = (
      await exchange({ code, client_id: world.partner.client_id, client_secret: world.partner.client_secret! })
    ).json();
    const self = (brand: string) =>
      t.app.inject({
        method: 'GET',
        url: '/users/self',
        headers: { ...bearer(access_token), 'x-rechat-brand': brand },
      });
    expect((await self(world.brokerage.id)).statusCode).toBe(200);
    expect((await self(world.office.id)).statusCode).toBe(200);
    expect((await self(world.other.id)).statusCode).toBe(403);
  });

  it('binds a public client’s code to its PKCE challenge', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const browser = new InjectBrowser(t.app);
    const params = codeParams({
      client_id: world.publicClient.client_id,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const consent = await pick(browser, await startSignedIn(browser, world, params), world.brokerage.id);
    const code = redirectParams(
      await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' }),
    ).query.get('code')!;
    const row = await t.deps.db
      .selectFrom('authorization_codes')
      .select('code_challenge')
      .where('code_hash', '=', hashToken(code))
      .executeTakeFirstOrThrow();
    expect(row.code_challenge).toBe(challenge);
    expect(
      (await exchange({ code, client_id: world.publicClient.client_id, code_verifier: 'x'.repeat(43) })).statusCode,
    ).toBe(400);
  });

  it('preselects a requested brand the user has, skipping the picker (approval still asked)', async () => {
    const consent = await startSignedIn(new InjectBrowser(t.app), world, codeParams({ brandId: world.office.id }));
    expect(consent.body).toContain('Allow Listing Syndicator to access Acme Downtown?');
    expect(consent.body).not.toContain('Choose a brand');
    expect(consent.body).toContain('value="approve"');
  });

  it('shows the picker for a requested brand the user lacks, or that does not exist, or is malformed', async () => {
    const stranger = (
      await t.deps.db
        .insertInto('brands')
        .values({ name: 'Stranger Brand', parent: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    for (const brandId of [stranger, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const page = await startSignedIn(new InjectBrowser(t.app), world, codeParams({ brandId }));
      expect(page.body).toContain('Choose a brand');
      expect(page.body).not.toContain('Stranger Brand');
    }
  });

  it('refuses a brand outside the user’s reach posted to the picker', async () => {
    const browser = new InjectBrowser(t.app);
    const picker = await startSignedIn(browser, world, codeParams());
    const stranger = (
      await t.deps.db
        .insertInto('brands')
        .values({ name: 'Not Yours', parent: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const res = await browser.submit(picker, '/oauth2/auth/brand', { brand: stranger });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Choose one of the brands listed.');
  });

  it('returns access_denied with the state when the user declines', async () => {
    const browser = new InjectBrowser(t.app);
    const consent = await startSignedIn(browser, world, codeParams({ brandId: world.brokerage.id }));
    const res = await browser.submit(consent, '/oauth2/auth/decision', { decision: 'decline' });
    expect(res.statusCode).toBe(302);
    expect(redirectParams(res).query.get('error')).toBe('access_denied');
    expect(redirectParams(res).query.get('state')).toBe('st-1');
    expect(redirectParams(res).query.get('code')).toBeNull();
  });

  it('lets the user go back to the picker from the consent page, and cancel at sign-in', async () => {
    const browser = new InjectBrowser(t.app);
    const consent = await startSignedIn(browser, world, codeParams({ brandId: world.brokerage.id }));
    const picker = await browser.follow(
      await browser.submit(consent, '/oauth2/auth/decision', { decision: 'change-brand' }),
    );
    expect(picker.body).toContain('Choose a brand');
    const cancelled = await new InjectBrowser(t.app).get(authorizeUrl(codeParams()));
    const res = await new InjectBrowser(t.app).submit(cancelled, '/oauth2/auth/decision', { decision: 'decline' });
    expect(res.statusCode).toBe(403); // another browser: no session, so the form is refused
    const own = new InjectBrowser(t.app);
    const start = await own.get(authorizeUrl(codeParams()));
    const declined = await own.submit(start, '/oauth2/auth/decision', { decision: 'decline' });
    expect(redirectParams(declined).query.get('error')).toBe('access_denied');
  });

  it('implicit flow: the token in the fragment, no refresh token, bound to the brand', async () => {
    const browser = new InjectBrowser(t.app);
    const consent = await startSignedIn(
      browser,
      world,
      codeParams({ response_type: 'token', brandId: world.brokerage.id }),
    );
    expect(consent.body).toContain('31 days');
    const res = await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' });
    expect(res.statusCode).toBe(302);
    const { query, fragment } = redirectParams(res);
    expect([...query.keys()]).toEqual([]);
    expect(fragment.get('expires_in')).toBe('2678400');
    expect(fragment.get('token_type')).toBe('Bearer');
    expect(fragment.get('brand')).toBe(world.brokerage.id);
    expect(fragment.get('state')).toBe('st-1');
    expect(fragment.get('refresh_token')).toBeNull();
    const token = fragment.get('access_token')!;
    expect((await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(token) })).json().data.email).toBe(
      world.user.email,
    );
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/users/self',
          headers: { ...bearer(token), 'x-rechat-brand': world.other.id },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('remembers the sign-in for the next authorization but asks again for approval', async () => {
    const browser = new InjectBrowser(t.app);
    await startSignedIn(browser, world, codeParams());
    const second = await browser.get(authorizeUrl(codeParams({ brandId: world.brokerage.id, state: 'st-2' })));
    expect(second.body).toContain('Allow Listing Syndicator to access Acme Realty?');
  });
});
