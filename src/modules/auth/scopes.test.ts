// Scopes that mean something (decisions §22, docs/oauth.md "Scopes"): what a scoped token may call, what the token
// and authorization endpoints grant and refuse, and that a refresh may narrow a login but never widen it.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { addMembership, bearer, createBrand, createClient, createUser } from '../../../test/helpers/factories.js';
import { postToken } from '../../../test/helpers/oauth.js';
import {
  authorizeUrl,
  createWorld,
  InjectBrowser,
  PARTNER_REDIRECT,
  redirectParams,
  startSignedIn,
  type World,
} from '../../../test/helpers/web.js';
import { createOAuthClient, type CreatedClient } from './clients.service.js';

describe('scopes', () => {
  const t = useTestApp();
  let app: CreatedClient;
  let readOnly: CreatedClient;
  let email: string;
  let brand: string;
  beforeAll(async () => {
    app = await createClient(t.deps, 'first_party');
    readOnly = await createOAuthClient(t.deps.db, {
      name: 'Read-only sync',
      kind: 'first_party',
      allowedScopes: ['contacts:read', 'listings:read'],
    });
    brand = (await createBrand(t.deps)).id;
    const user = await createUser(t.deps);
    await addMembership(t.deps, user.id, brand, ['CRM']);
    email = user.email;
  });

  const login = (scope?: string, client: CreatedClient = app) =>
    postToken(t.app, {
      grant_type: 'password',
      client_id: client.client_id,
      client_secret: client.client_secret!,
      username: email,
      password: 'correct horse battery staple',
      scope,
    });
  const tokens = async (scope?: string, client?: CreatedClient) => {
    const res = await login(scope, client);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { access_token: string; refresh_token: string };
  };
  const listContacts = (token: string) =>
    t.app.inject({ method: 'GET', url: '/contacts', headers: { ...bearer(token), 'x-rechat-brand': brand } });
  const createContact = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: { ...bearer(token), 'x-rechat-brand': brand },
      payload: { first_name: 'Scoped' },
    });
  const contactCount = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('contacts')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('brand', '=', brand)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const familyCount = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('token_families')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const refreshWith = (refreshToken: string, scope?: string) =>
    postToken(t.app, {
      grant_type: 'refresh_token',
      client_id: app.client_id,
      client_secret: app.client_secret!,
      refresh_token: refreshToken,
      scope,
    });

  it('lets a token without a scope do everything, as before scopes existed', async () => {
    const { access_token } = await tokens();
    expect((await listContacts(access_token)).statusCode).toBe(200);
    expect((await createContact(access_token)).statusCode).toBe(200);
    const family = await t.deps.db.selectFrom('token_families').select('scope').orderBy('created_at', 'desc').limit(1);
    expect((await family.executeTakeFirstOrThrow()).scope).toBe('full');
  });

  it('lets a contacts:read token list contacts but not create one (403 insufficient_scope, nothing written)', async () => {
    const { access_token } = await tokens('contacts:read');
    expect((await listContacts(access_token)).statusCode).toBe(200);
    const before = await contactCount();
    const refused = await createContact(access_token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ http: 403, code: 'AccessForbidden' });
    expect(refused.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="contacts:write"');
    expect(await contactCount()).toBe(before);
    // Another feature's routes are out of reach too.
    const webhooks = await t.app.inject({
      method: 'GET',
      url: `/brands/${brand}/webhooks`,
      headers: bearer(access_token),
    });
    expect(webhooks.statusCode).toBe(403);
    expect(webhooks.headers['www-authenticate']).toContain('scope="webhooks"');
  });

  it('lets contacts:write read as well, and full do everything', async () => {
    const writer = await tokens('contacts:write');
    expect((await listContacts(writer.access_token)).statusCode).toBe(200);
    expect((await createContact(writer.access_token)).statusCode).toBe(200);
    const full = await tokens('full');
    expect((await createContact(full.access_token)).statusCode).toBe(200);
  });

  it('refuses an unknown scope with invalid_scope and starts no login', async () => {
    const before = await familyCount();
    const res = await login('contacts:read contacts:everything');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_scope', code: 'BadRequest' });
    expect(res.json().error_description).toContain('contacts:everything');
    expect(await familyCount()).toBe(before);
  });

  it('refuses a scope the client may not ask for, and gives a narrowed client its own scopes by default', async () => {
    const refused = await login('contacts:write', readOnly);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('invalid_scope');
    expect((await login('full', readOnly)).json().error).toBe('invalid_scope');
    const { access_token } = await tokens(undefined, readOnly);
    expect((await listContacts(access_token)).statusCode).toBe(200);
    expect((await createContact(access_token)).statusCode).toBe(403);
  });

  it('keeps the scope across refreshes, lets a refresh narrow the login, never widen it', async () => {
    const reader = await tokens('contacts:read');
    const inherited = (await refreshWith(reader.refresh_token)).json();
    expect((await createContact(inherited.access_token)).statusCode).toBe(403);
    expect((await listContacts(inherited.access_token)).statusCode).toBe(200);

    const widened = await refreshWith(inherited.refresh_token, 'contacts:write');
    expect(widened.statusCode).toBe(400);
    expect(widened.json().error).toBe('invalid_scope');
    expect((await refreshWith(inherited.refresh_token, 'full')).json().error).toBe('invalid_scope');
    // The refused refresh left the token as it was: it still refreshes, with the same scope.
    const after = await refreshWith(inherited.refresh_token);
    expect(after.statusCode).toBe(200);
    expect((await createContact(after.json().access_token)).statusCode).toBe(403);

    const full = await tokens();
    const narrowed = await refreshWith(full.refresh_token, 'contacts:read');
    expect(narrowed.statusCode).toBe(200);
    expect((await listContacts(narrowed.json().access_token)).statusCode).toBe(200);
    expect((await createContact(narrowed.json().access_token)).statusCode).toBe(403);
    // The whole login narrowed: the access token issued before the refresh too.
    expect((await createContact(full.access_token)).statusCode).toBe(403);
    expect((await refreshWith(narrowed.json().refresh_token, 'contacts:write')).json().error).toBe('invalid_scope');
  });

  it('lets every signed-in token validate MFA and read who it is, whatever its scope; changes need account', async () => {
    const { access_token } = await tokens('listings:read');
    const res = await t.app.inject({
      method: 'POST',
      url: '/users/self/mfa/validate',
      headers: bearer(access_token),
      payload: { code: '000000' },
    });
    expect(res.statusCode).not.toBe(403);
    const self = await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(access_token) });
    expect(self.statusCode).toBe(200);
    const change = await t.app.inject({
      method: 'PATCH',
      url: '/users/self',
      headers: bearer(access_token),
      payload: { first_name: 'Changed' },
    });
    expect(change.statusCode).toBe(403);
    expect(change.headers['www-authenticate']).toContain('scope="account"');
    expect(
      (await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(access_token) })).json().data,
    ).toMatchObject({ first_name: self.json().data.first_name });
  });
});

describe('scopes at the authorization endpoint', () => {
  const t = useTestApp();
  let world: World;
  let narrow: CreatedClient;
  beforeAll(async () => {
    world = await createWorld(t.deps);
    narrow = await createOAuthClient(t.deps.db, {
      name: 'Contacts Viewer',
      kind: 'partner',
      redirectUris: [PARTNER_REDIRECT],
      allowedScopes: ['contacts:read'],
    });
  });

  const params = (client: { client_id: string }, extra: Record<string, string> = {}) => ({
    client_id: client.client_id,
    redirect_uri: PARTNER_REDIRECT,
    response_type: 'code',
    state: 's-1',
    ...extra,
  });
  const get = (query: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: authorizeUrl(query), headers: { host: 'gable.test' } });

  it('redirects an unknown scope, or one the client may not ask for, with error=invalid_scope', async () => {
    for (const [client, scope] of [
      [world.partner, 'contacts:read nonsense'],
      [narrow, 'contacts:write'],
      [narrow, 'full'],
    ] as const) {
      const res = await get(params(client, { scope }));
      expect(res.statusCode).toBe(302);
      const { query } = redirectParams(res);
      expect(query.get('error')).toBe('invalid_scope');
      expect(query.get('state')).toBe('s-1');
    }
    const implicit = await get(params(narrow, { response_type: 'token', scope: 'webhooks' }));
    expect(redirectParams(implicit).fragment.get('error')).toBe('invalid_scope');
  });

  it('shows the scopes in words on the consent page and issues tokens that hold only them', async () => {
    const browser = new InjectBrowser(t.app);
    const picker = await startSignedIn(browser, world, params(narrow, { scope: 'openid contacts:read' }));
    expect(picker.statusCode).toBe(200);
    const consent = picker.body.includes('name="brand"')
      ? await browser.follow(await browser.submit(picker, '/oauth2/auth/brand', { brand: world.brokerage.id }))
      : picker;
    expect(consent.body).toContain('See your contacts, their timeline, leads and showings');
    expect(consent.body).toContain('Sign you in to the application with your account here');
    expect(consent.body).not.toContain('Read and change what you can');
    const approved = await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' });
    const code = redirectParams(approved).query.get('code')!;
    const exchanged = await postToken(t.app, {
      grant_type: 'authorization_code',
      client_id: narrow.client_id,
      client_secret: narrow.client_secret!,
      code,
      redirect_uri: PARTNER_REDIRECT,
    });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const token = exchanged.json().access_token as string;
    const headers = { ...bearer(token), 'x-rechat-brand': world.brokerage.id };
    expect((await t.app.inject({ method: 'GET', url: '/contacts/tags', headers })).statusCode).not.toBe(403);
    const write = await t.app.inject({ method: 'POST', url: '/contacts', headers, payload: { first_name: 'No' } });
    expect(write.statusCode).toBe(403);
    expect(write.headers['www-authenticate']).toContain('insufficient_scope');
  });

  it('keeps the consent page’s words for a request without scope (full)', async () => {
    const browser = new InjectBrowser(t.app);
    const picker = await startSignedIn(browser, world, params(world.partner));
    const consent = picker.body.includes('name="brand"')
      ? await browser.follow(await browser.submit(picker, '/oauth2/auth/brand', { brand: world.brokerage.id }))
      : picker;
    expect(consent.body).toContain('Read and change what you can in');
  });
});
