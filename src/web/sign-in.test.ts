// Sign-in on the authorization pages: wrong password, brute-force limit, CSRF, session rotation.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import {
  authorizeUrl,
  createWorld,
  hiddenFields,
  InjectBrowser,
  PARTNER_REDIRECT,
  startSignedIn,
  type World,
} from '../../test/helpers/web.js';

describe('authorization pages: sign-in', () => {
  const t = useTestApp();
  let world: World;
  beforeAll(async () => {
    world = await createWorld(t.deps);
  });

  const params = () => ({
    client_id: world.partner.client_id,
    redirect_uri: PARTNER_REDIRECT,
    response_type: 'code',
    state: 's1',
  });

  it('refuses a wrong password with the form again, the error announced, the email kept', async () => {
    const browser = new InjectBrowser(t.app);
    const start = await browser.get(authorizeUrl(params()));
    const res = await browser.submit(start, '/oauth2/auth/sign-in', {
      email: world.user.email,
      password: 'wrong password',
    });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('role="alert"');
    expect(res.body).toContain('The email address or password is incorrect.');
    expect(res.body).toContain(`value="${world.user.email}"`);
    expect(res.body).toContain('aria-invalid="true"');
  });

  it('signs in, rotating the session cookie and the CSRF token, then shows the brand picker', async () => {
    const browser = new InjectBrowser(t.app);
    const start = await browser.get(authorizeUrl(params()));
    const before = [...browser.cookies.values()][0];
    const res = await browser.submit(start, '/oauth2/auth/sign-in', {
      email: world.user.email.toUpperCase(),
      password: 'correct horse battery staple',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/oauth2/auth/step');
    expect([...browser.cookies.values()][0]).not.toBe(before);
    const picker = await browser.follow(res);
    expect(picker.statusCode).toBe(200);
    expect(picker.body).toContain('Choose a brand');
    expect(hiddenFields(picker.body).csrf).not.toBe(hiddenFields(start.body).csrf);
    // the old CSRF token no longer works
    const stale = await browser.post('/oauth2/auth/brand', { ...hiddenFields(start.body), brand: world.brokerage.id });
    expect(stale.statusCode).toBe(403);
  });

  it('answers 403 with a page to a POST without or with a wrong CSRF token', async () => {
    const browser = new InjectBrowser(t.app);
    const start = await browser.get(authorizeUrl(params()));
    const request = hiddenFields(start.body).request;
    const missing = await browser.post('/oauth2/auth/sign-in', {
      request,
      email: world.user.email,
      password: 'correct horse battery staple',
    });
    expect(missing.statusCode).toBe(403);
    expect(missing.headers['content-type']).toContain('text/html');
    expect(missing.body).toContain('This page has expired');
    const wrong = await browser.post('/oauth2/auth/sign-in', {
      request,
      csrf: 'forged',
      email: world.user.email,
      password: 'correct horse battery staple',
    });
    expect(wrong.statusCode).toBe(403);
    // another browser's valid token does not help either (no session cookie here)
    const stranger = new InjectBrowser(t.app);
    const foreign = await stranger.post('/oauth2/auth/sign-in', {
      ...hiddenFields(start.body),
      email: world.user.email,
      password: 'correct horse battery staple',
    });
    expect(foreign.statusCode).toBe(403);
  });

  it('refuses a form of a request that was replaced in another tab', async () => {
    const browser = new InjectBrowser(t.app);
    const first = await browser.get(authorizeUrl(params()));
    await browser.get(authorizeUrl({ ...params(), state: 'second' }));
    const res = await browser.submit(first, '/oauth2/auth/sign-in', {
      email: world.user.email,
      password: 'correct horse battery staple',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('No authorization in progress');
  });

  it('lets the user switch account', async () => {
    const browser = new InjectBrowser(t.app);
    const picker = await startSignedIn(browser, world, params());
    const res = await browser.follow(await browser.submit(picker, '/oauth2/auth/sign-out'));
    expect(res.body).toContain('<h1>Sign in</h1>');
  });

  it('shows a 429 page with the wait after too many failures, and refuses even the right password then', async () => {
    const user = world.user.email;
    const browser = new InjectBrowser(t.app);
    let page = await browser.get(authorizeUrl(params()));
    for (let i = 0; i < 5; i++) {
      page = await browser.submit(page, '/oauth2/auth/sign-in', { email: user, password: `wrong ${i}` });
      expect(page.statusCode).toBe(401);
    }
    const start = await browser.get(authorizeUrl(params()));
    const blocked = await browser.submit(start, '/oauth2/auth/sign-in', {
      email: user,
      password: 'correct horse battery staple',
    });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body).toContain('Too many sign-in attempts');
    expect(blocked.body).toMatch(/wait \d+ seconds?/);
    t.clock.advance(5);
    const later = await browser.submit(start, '/oauth2/auth/sign-in', {
      email: user,
      password: 'correct horse battery staple',
    });
    expect(later.statusCode).toBe(303);
  });

  it('shows a page, not JSON, when the step is opened without a request', async () => {
    const res = await new InjectBrowser(t.app).get('/oauth2/auth/step');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
