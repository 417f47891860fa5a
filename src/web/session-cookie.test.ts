// Behind TLS the session cookie is Secure and __Host- prefixed (host-only, Path=/), so it never travels in
// clear text and no sibling domain can plant one.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import {
  authorizeUrl,
  createWorld,
  InjectBrowser,
  PARTNER_REDIRECT,
  startSignedIn,
  type World,
} from '../../test/helpers/web.js';

describe('session cookie behind TLS', () => {
  const t = useTestApp({ env: { BASE_URL: 'https://gable.example' } });
  let world: World;
  beforeAll(async () => {
    world = await createWorld(t.deps);
  });

  it('is Secure, HttpOnly, SameSite=Lax and __Host- prefixed, and the flow works with it', async () => {
    const browser = new InjectBrowser(t.app);
    const params = { client_id: world.partner.client_id, redirect_uri: PARTNER_REDIRECT, response_type: 'code' };
    const res = await browser.get(authorizeUrl(params));
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^__Host-gable_session=/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).not.toMatch(/Domain=/i);
    const picker = await startSignedIn(browser, world, params);
    expect(picker.body).toContain('Choose a brand');
  });

  it('stores only a hash of the session id', async () => {
    const browser = new InjectBrowser(t.app);
    await browser.get(
      authorizeUrl({ client_id: world.partner.client_id, redirect_uri: PARTNER_REDIRECT, response_type: 'code' }),
    );
    const value = browser.cookies.get('__Host-gable_session')!;
    const rows = await t.deps.db.selectFrom('web_sessions').select('session_hash').execute();
    expect(
      rows.some((row) => row.session_hash.toString('base64url') === value || row.session_hash.toString() === value),
    ).toBe(false);
    expect(rows.every((row) => row.session_hash.length === 32)).toBe(true);
  });
});
