// Authorization-code exchange (the token half of the partner flow), with codes made by createAuthorizationCode
// as the /oauth2/auth pages make them; and the implicit-flow token.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { addMembership, bearer, createBrand, createClient, createUser } from '../../../test/helpers/factories.js';
import { postToken } from '../../../test/helpers/oauth.js';
import { hashToken, randomToken, sha256Base64Url } from '../../lib/crypto.js';
import { createAuthorizationCode, issueImplicitToken } from './authorization-codes.js';
import { AUTHORIZATION_CODE_SECONDS } from './token-policy.js';

const REDIRECT = 'http://127.0.0.1:4999/callback';

describe('POST /oauth2/token grant_type=authorization_code', () => {
  const t = useTestApp();
  let partner: Awaited<ReturnType<typeof createClient>>;
  let publicClient: Awaited<ReturnType<typeof createClient>>;
  let user: Awaited<ReturnType<typeof createUser>>;
  let brand: Awaited<ReturnType<typeof createBrand>>;
  beforeAll(async () => {
    partner = await createClient(t.deps, 'partner');
    publicClient = await createClient(t.deps, 'public');
    user = await createUser(t.deps);
    brand = await createBrand(t.deps);
    await addMembership(t.deps, user.id, brand.id);
  });

  const newCode = (client: { id: string }, options: { codeChallenge?: string | null; mfaValidated?: boolean } = {}) =>
    createAuthorizationCode(t.deps.db, t.deps.clock, {
      client: client.id,
      user: user.id,
      brand: brand.id,
      redirectUri: REDIRECT,
      codeChallenge: options.codeChallenge ?? null,
      mfaValidated: options.mfaValidated ?? false,
    });
  const exchange = (
    fields: Record<string, string | undefined>,
    client: { client_id: string; client_secret: string | null } = partner,
  ) =>
    postToken(
      t.app,
      {
        grant_type: 'authorization_code',
        client_id: client.client_id,
        client_secret: client.client_secret ?? undefined,
        redirect_uri: REDIRECT,
        ...fields,
      },
      { form: true },
    );

  it('exchanges a code for a brand-bound pair, with the brand in the response', async () => {
    const res = await exchange({ code: await newCode(partner, { mfaValidated: true }) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 'OK', token_type: 'Bearer', expires_in: 2678400, brand: brand.id });
    expect(body.refresh_token).toEqual(expect.any(String));
    expect(body.data).toBeUndefined();
    const family = await t.deps.db
      .selectFrom('access_tokens as a')
      .innerJoin('token_families as f', 'f.id', 'a.family')
      .select(['f.brand', 'f.user', 'f.mfa_validated', 'f.grant_type'])
      .where('a.token_hash', '=', hashToken(body.access_token))
      .executeTakeFirstOrThrow();
    expect(family).toEqual({ brand: brand.id, user: user.id, mfa_validated: true, grant_type: 'authorization_code' });
    expect(
      (await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(body.access_token) })).statusCode,
    ).toBe(200);
    // the partner's refresh token rotates like any other
    const refreshed = await postToken(t.app, {
      grant_type: 'refresh_token',
      client_id: partner.client_id,
      client_secret: partner.client_secret!,
      refresh_token: body.refresh_token,
    });
    expect(refreshed.statusCode).toBe(200);
  });

  it('verifies PKCE S256 for a confidential client that sent a challenge', async () => {
    const verifier = randomToken(32);
    const ok = await exchange({
      code: await newCode(partner, { codeChallenge: sha256Base64Url(verifier) }),
      code_verifier: verifier,
    });
    expect(ok.statusCode).toBe(200);
    const challenged = await newCode(partner, { codeChallenge: sha256Base64Url(verifier) });
    expect((await exchange({ code: challenged })).json()).toMatchObject({ http: 400, error: 'invalid_grant' });
    expect(
      (
        await exchange({
          code: await newCode(partner, { codeChallenge: sha256Base64Url(verifier) }),
          code_verifier: randomToken(32),
        })
      ).json().error,
    ).toBe('invalid_grant');
    // a verifier without a stored challenge is a downgrade attempt
    expect((await exchange({ code: await newCode(partner), code_verifier: verifier })).json().error).toBe(
      'invalid_grant',
    );
  });

  it('lets a public client exchange with PKCE and no secret, and requires PKCE of it', async () => {
    const verifier = randomToken(48);
    const ok = await exchange(
      { code: await newCode(publicClient, { codeChallenge: sha256Base64Url(verifier) }), code_verifier: verifier },
      publicClient,
    );
    expect(ok.statusCode).toBe(200);
    const noPkce = await exchange({ code: await newCode(publicClient) }, publicClient);
    expect(noPkce.json()).toMatchObject({
      error: 'invalid_grant',
      message: 'A public client must use PKCE (code_challenge with method S256)',
    });
    const withSecret = await exchange({ code: await newCode(publicClient), client_secret: 'anything' }, publicClient);
    expect(withSecret.json()).toMatchObject({ http: 401, error: 'invalid_client' });
  });

  it('requires the partner secret', async () => {
    const res = await exchange(
      { code: await newCode(partner), client_secret: undefined },
      { client_id: partner.client_id, client_secret: null },
    );
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_client');
  });

  it('refuses a redirect_uri that differs from the stored one, and a missing one', async () => {
    const code = await newCode(partner);
    expect((await exchange({ code, redirect_uri: `${REDIRECT}/other` })).json()).toMatchObject({
      error: 'invalid_grant',
      message: 'redirect_uri does not match the authorization request',
    });
    expect((await exchange({ code, redirect_uri: undefined })).json()).toMatchObject({
      error: 'invalid_request',
      attributes: { redirect_uri: ['is required'] },
    });
    expect((await exchange({ code })).statusCode).toBe(200); // the failed attempts did not use it up
  });

  it('binds the code to its client', async () => {
    const otherPartner = await createClient(t.deps, 'partner');
    const code = await newCode(partner);
    expect((await exchange({ code }, otherPartner)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await exchange({ code: 'no-such-code' })).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('expires a code after 10 minutes', async () => {
    const code = await newCode(partner);
    t.clock.advance(AUTHORIZATION_CODE_SECONDS);
    expect((await exchange({ code })).json()).toMatchObject({
      error: 'invalid_grant',
      message: 'The authorization code has expired',
    });
  });

  it('uses a code once; a second use revokes what the first issued', async () => {
    const code = await newCode(partner);
    const first = (await exchange({ code })).json();
    const second = await exchange({ code });
    expect(second.statusCode).toBe(400);
    expect(second.json().error).toBe('invalid_grant');
    expect(
      (await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(first.access_token) })).statusCode,
    ).toBe(401);
    const refreshed = await postToken(t.app, {
      grant_type: 'refresh_token',
      client_id: partner.client_id,
      client_secret: partner.client_secret!,
      refresh_token: first.refresh_token,
    });
    expect(refreshed.json().error).toBe('invalid_grant');
  });

  it('refuses the code of a user deleted since', async () => {
    const leaver = await createUser(t.deps);
    const code = await createAuthorizationCode(t.deps.db, t.deps.clock, {
      client: partner.id,
      user: leaver.id,
      brand: brand.id,
      redirectUri: REDIRECT,
      codeChallenge: null,
      mfaValidated: false,
    });
    await t.deps.db.updateTable('users').set({ deleted_at: t.clock.now() }).where('id', '=', leaver.id).execute();
    expect((await exchange({ code })).json().error).toBe('invalid_grant');
  });

  it('issues an implicit token: brand-bound, no refresh token', async () => {
    const token = await issueImplicitToken(t.deps.db, t.deps.clock, {
      client: partner.id,
      user: user.id,
      brand: brand.id,
      mfaValidated: false,
    });
    expect(token.refresh_token).toBeUndefined();
    expect(token.expires_in).toBe(2678400);
    const family = await t.deps.db
      .selectFrom('token_families')
      .select(['brand', 'grant_type'])
      .where('id', '=', token.family)
      .executeTakeFirstOrThrow();
    expect(family).toEqual({ brand: brand.id, grant_type: 'implicit' });
    expect((await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(token) })).statusCode).toBe(200);
  });
});
