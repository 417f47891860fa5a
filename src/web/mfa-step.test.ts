// The TOTP step of the web sign-in: required when the user has MFA enabled, replay refused, and the issued
// code starts an MFA-validated token family.
import { Secret, TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { bearer } from '../../test/helpers/factories.js';
import { hashToken } from '../lib/crypto.js';
import { recoveryCodeHash } from '../modules/mfa/recovery-codes.js';
import {
  createWorld,
  InjectBrowser,
  PARTNER_REDIRECT,
  redirectParams,
  startSignedIn,
  type World,
} from '../../test/helpers/web.js';

describe('authorization pages: MFA step', () => {
  const t = useTestApp();
  let world: World;
  const secret = new Secret({ size: 20 });
  const codeAt = (offsetSeconds = 0) =>
    TOTP.generate({
      secret,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      timestamp: t.clock.now().getTime() + offsetSeconds * 1000,
    });

  beforeAll(async () => {
    world = await createWorld(t.deps);
    await t.deps.db
      .updateTable('users')
      .set({ mfa_enabled: true, mfa_secret: t.deps.secrets.encrypt(secret.base32) })
      .where('id', '=', world.user.id)
      .execute();
  });

  const params = () => ({
    client_id: world.partner.client_id,
    redirect_uri: PARTNER_REDIRECT,
    response_type: 'code',
    state: 'm1',
    brandId: world.brokerage.id,
  });

  it('asks for the code after the password and goes nowhere else until it is given', async () => {
    const browser = new InjectBrowser(t.app);
    const mfa = await startSignedIn(browser, world, params());
    expect(mfa.body).toContain('Two-step verification');
    expect(mfa.body).toContain('autocomplete="one-time-code"');
    // skipping ahead is refused: approve does nothing, the MFA page comes back
    const skipped = await browser.follow(await browser.submit(mfa, '/oauth2/auth/decision', { decision: 'approve' }));
    expect(skipped.body).toContain('Two-step verification');
    const brand = await browser.follow(await browser.submit(mfa, '/oauth2/auth/brand', { brand: world.brokerage.id }));
    expect(brand.body).toContain('Two-step verification');
  });

  it('refuses a wrong code with the error announced', async () => {
    const browser = new InjectBrowser(t.app);
    const mfa = await startSignedIn(browser, world, params());
    const wrong = await browser.submit(mfa, '/oauth2/auth/mfa', { code: codeAt(-600) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('role="alert"');
    const malformed = await browser.submit(mfa, '/oauth2/auth/mfa', { code: '12ab' });
    expect(malformed.statusCode).toBe(400);
  });

  it('accepts the current code once; the code issued carries mfa_validated and its token works', async () => {
    t.clock.advance(60);
    const browser = new InjectBrowser(t.app);
    const mfa = await startSignedIn(browser, world, params());
    const code = codeAt();
    const consent = await browser.follow(await browser.submit(mfa, '/oauth2/auth/mfa', { code }));
    expect(consent.body).toContain('Allow Listing Syndicator to access Acme Realty?');
    const res = await browser.submit(consent, '/oauth2/auth/decision', { decision: 'approve' });
    const authorizationCode = redirectParams(res).query.get('code')!;
    const row = await t.deps.db
      .selectFrom('authorization_codes')
      .select('mfa_validated')
      .where('code_hash', '=', hashToken(authorizationCode))
      .executeTakeFirstOrThrow();
    expect(row.mfa_validated).toBe(true);
    const tokens = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: {
        grant_type: 'authorization_code',
        code: authorizationCode,
        redirect_uri: PARTNER_REDIRECT,
        client_id: world.partner.client_id,
        client_secret: world.partner.client_secret,
      },
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(tokens.json().access_token) }))
        .statusCode,
    ).toBe(200);

    // the same code again, in another browser: a replay
    const other = new InjectBrowser(t.app);
    const again = await startSignedIn(other, world, params());
    const replay = await other.submit(again, '/oauth2/auth/mfa', { code });
    expect(replay.statusCode).toBe(401);
  });

  it('takes a recovery code instead, however it is typed, once', async () => {
    const recovery = 'abcd-efgh-ijkl-mn23';
    await t.deps.db
      .insertInto('mfa_recovery_codes')
      .values({ code_hash: recoveryCodeHash(recovery), user: world.user.id, created_at: t.clock.now() })
      .execute();
    const browser = new InjectBrowser(t.app);
    const mfa = await startSignedIn(browser, world, params());
    expect(mfa.body).toContain('recovery codes');
    const consent = await browser.follow(
      await browser.submit(mfa, '/oauth2/auth/mfa', { code: ' ABCD EFGH IJKL MN23 ' }),
    );
    expect(consent.body).toContain('Allow Listing Syndicator to access Acme Realty?');
    // Burned: the same code in another browser is refused like a wrong one.
    const other = new InjectBrowser(t.app);
    const again = await startSignedIn(other, world, params());
    const reused = await other.submit(again, '/oauth2/auth/mfa', { code: recovery });
    expect(reused.statusCode).toBe(401);
    const unshaped = await other.submit(again, '/oauth2/auth/mfa', { code: 'abcd-efgh' });
    expect(unshaped.statusCode).toBe(400);
  });
});
