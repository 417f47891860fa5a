// What a signed-in page session and a partner token may NOT do to the account: survive a password change,
// have a stale request write onto a session another sign-in took over, or change account-wide security.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { bearer, createUser, TEST_PASSWORD, tokenFor } from '../../test/helpers/factories.js';
import { hashToken, randomToken } from '../lib/crypto.js';
import { insertSession, updateSession } from '../modules/auth/web-sessions.repository.js';
import { createWorld, InjectBrowser, PARTNER_REDIRECT, startSignedIn, type World } from '../../test/helpers/web.js';

describe('authorization pages and partner tokens: account security', () => {
  const t = useTestApp();
  let world: World;
  beforeAll(async () => {
    world = await createWorld(t.deps);
  });

  const codeParams = () => ({
    client_id: world.partner.client_id,
    redirect_uri: PARTNER_REDIRECT,
    response_type: 'code',
    state: 'sec',
  });

  it('a password change signs the user out of every page session', async () => {
    const user = await createUser(t.deps);
    await t.deps.db
      .insertInto('memberships')
      .values({ user: user.id, brand: world.brokerage.id, acl: ['CRM'], deleted_at: null })
      .execute();
    const browser = new InjectBrowser(t.app);
    const picker = await startSignedIn(browser, { ...world, user }, codeParams());
    expect(picker.body).toContain('Choose a brand');

    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/users/self/password',
      headers: bearer(await tokenFor(t.deps, user.id)),
      payload: { old_password: TEST_PASSWORD, new_password: 'a brand new passphrase' },
    });
    expect(changed.statusCode).toBe(204);

    const after = await browser.get('/oauth2/auth/step');
    expect(after.body).not.toContain('Choose a brand');
    const row = await t.deps.db
      .selectFrom('web_sessions')
      .select(['user', 'mfa_passed'])
      .where('user', '=', user.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('a session update written with a cookie hash that a sign-in has rotated away changes nothing', async () => {
    const loadedHash = hashToken(randomToken());
    const session = await insertSession(
      t.deps.db,
      loadedHash,
      randomToken(),
      new Date(t.clock.now().getTime() + 3600_000),
    );
    // a concurrent sign-in (another tab) rotates the hash and puts another user on the session
    const rotated = await updateSession(
      t.deps.db,
      session.id,
      loadedHash,
      { session_hash: hashToken(randomToken()), user: world.user.id, mfa_passed: false },
      t.clock.now(),
    );
    expect(rotated).toBe(true);
    // the slower request, which checked a TOTP code for the previous user, must not mark this session
    expect(await updateSession(t.deps.db, session.id, loadedHash, { mfa_passed: true }, t.clock.now())).toBe(false);
    const row = await t.deps.db
      .selectFrom('web_sessions')
      .select(['user', 'mfa_passed'])
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ user: world.user.id, mfa_passed: false });
  });

  it('a brand-bound (partner) token may not set up MFA or change the password', async () => {
    const partnerToken = await tokenFor(t.deps, world.user.id, { client: world.partner.id, brand: world.brokerage.id });
    const setup = await t.app.inject({ method: 'POST', url: '/users/self/mfa/setup', headers: bearer(partnerToken) });
    expect(setup.statusCode).toBe(403);
    const verify = await t.app.inject({
      method: 'POST',
      url: '/users/self/mfa/verify',
      headers: bearer(partnerToken),
      payload: { token: '123456' },
    });
    expect(verify.statusCode).toBe(403);
    const password = await t.app.inject({
      method: 'PATCH',
      url: '/users/self/password',
      headers: bearer(partnerToken),
      payload: { old_password: TEST_PASSWORD, new_password: 'the partner chose this' },
    });
    expect(password.statusCode).toBe(403);
    const state = await t.deps.db
      .selectFrom('users')
      .select(['mfa_secret', 'mfa_enabled'])
      .where('id', '=', world.user.id)
      .executeTakeFirstOrThrow();
    expect(state).toEqual({ mfa_secret: null, mfa_enabled: false });
    // the user's own first-party login still may
    const own = await t.app.inject({
      method: 'POST',
      url: '/users/self/mfa/setup',
      headers: bearer(await tokenFor(t.deps, world.user.id)),
    });
    expect(own.statusCode).toBe(200);
  });

  it('answers bad input on the pages with a 4xx page, not a 500', async () => {
    const nul = await t.app.inject({
      method: 'GET',
      url: `/oauth2/auth?client_id=%00&redirect_uri=x&response_type=code`,
    });
    expect(nul.statusCode).toBeGreaterThanOrEqual(400);
    expect(nul.statusCode).toBeLessThan(500);
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/oauth2/auth/sign-in',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.headers['content-type']).toMatch(/text\/html/);
  });
});
