// Refresh grant: rotation on every use, reuse detection with the lost-response window of decisions §3, the
// family's absolute lifetime, the client binding, and concurrent refreshes with one token.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createClient, createUser } from '../../../test/helpers/factories.js';
import { passwordLogin, postToken, refresh } from '../../../test/helpers/oauth.js';
import { hashToken as hashOf } from '../../lib/crypto.js';
import { ACCESS_TOKEN_SECONDS, FAMILY_LIFETIME_SECONDS, REFRESH_REUSE_WINDOW_SECONDS } from './token-policy.js';

describe('POST /oauth2/token grant_type=refresh_token', () => {
  const t = useTestApp();
  let client: Awaited<ReturnType<typeof createClient>>;
  beforeAll(async () => {
    client = await createClient(t.deps, 'first_party');
  });

  async function login() {
    const user = await createUser(t.deps);
    return (await passwordLogin(t.app, client, user.email)).json() as { access_token: string; refresh_token: string };
  }
  const self = (token: string) => t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(token) });

  it('rotates: a new pair without data, in the same family', async () => {
    const first = await login();
    const res = await refresh(t.app, client, first.refresh_token);
    expect(res.statusCode).toBe(200);
    const second = res.json();
    expect(Object.keys(second).sort()).toEqual(['access_token', 'code', 'expires_in', 'refresh_token', 'token_type']);
    expect(second).toMatchObject({ code: 'OK', token_type: 'Bearer', expires_in: 2678400 });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await self(second.access_token)).statusCode).toBe(200);
    // the rotated token and its successor share the family
    const [rotated, fresh] = await Promise.all(
      [first.refresh_token, second.refresh_token].map((token) =>
        t.deps.db
          .selectFrom('refresh_tokens')
          .select(['family', 'rotated_at'])
          .where('token_hash', '=', hashOf(token))
          .executeTakeFirstOrThrow(),
      ),
    );
    expect(rotated!.family).toBe(fresh!.family);
    expect(rotated!.rotated_at).not.toBeNull();
    expect(fresh!.rotated_at).toBeNull();
  });

  it('accepts form-encoded refresh with HTTP Basic', async () => {
    const first = await login();
    const res = await postToken(
      t.app,
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      { form: true, basic: { client_id: client.client_id, client_secret: client.client_secret! } },
    );
    expect(res.statusCode).toBe(200);
  });

  it('answers a lost response: the rotated token once more within the window, while its pair was never used', async () => {
    const first = await login();
    const lost = (await refresh(t.app, client, first.refresh_token)).json(); // the client never sees this pair
    // A restart takes seconds; the client retries well after the old 10 s grace.
    t.clock.advance(REFRESH_REUSE_WINDOW_SECONDS - 1);
    const retried = await refresh(t.app, client, first.refresh_token);
    expect(retried.statusCode).toBe(200);
    const fresh = retried.json();
    expect(fresh.refresh_token).not.toBe(lost.refresh_token);
    expect((await self(fresh.access_token)).statusCode).toBe(200);
    // the unused pair is retired, not left usable beside the fresh one
    expect((await self(lost.access_token)).statusCode).toBe(401);
    expect((await refresh(t.app, client, lost.refresh_token)).json().error).toBe('invalid_grant');
    expect((await refresh(t.app, client, fresh.refresh_token)).statusCode).toBe(200);
  });

  it('accepts that replay only once', async () => {
    const first = await login();
    await refresh(t.app, client, first.refresh_token);
    const retried = (await refresh(t.app, client, first.refresh_token)).json();
    const again = await refresh(t.app, client, first.refresh_token);
    expect(again.json()).toMatchObject({ http: 400, error: 'invalid_grant' });
    expect((await self(retried.access_token)).statusCode).toBe(401); // reuse beyond the one replay: the family is revoked
  });

  it('revokes the whole family when the pair of the rotation has been used', async () => {
    const first = await login();
    const second = (await refresh(t.app, client, first.refresh_token)).json();
    expect((await self(second.access_token)).statusCode).toBe(200); // the client had the response
    const replay = await refresh(t.app, client, first.refresh_token);
    expect(replay.json()).toMatchObject({ http: 400, error: 'invalid_grant' });
    expect((await self(second.access_token)).statusCode).toBe(401);
  });

  it('revokes the whole family when a rotated token comes back after the window', async () => {
    const first = await login();
    const second = (await refresh(t.app, client, first.refresh_token)).json();
    t.clock.advance(REFRESH_REUSE_WINDOW_SECONDS + 1);
    const replay = await refresh(t.app, client, first.refresh_token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('invalid_grant');
    // every token of the family is dead: old and new access tokens, the newest refresh token
    expect((await self(first.access_token)).statusCode).toBe(401);
    expect((await self(second.access_token)).statusCode).toBe(401);
    expect((await refresh(t.app, client, second.refresh_token)).json().error).toBe('invalid_grant');
    const family = await t.deps.db
      .selectFrom('refresh_tokens as r')
      .innerJoin('token_families as f', 'f.id', 'r.family')
      .select(['f.revoked_at', 'f.revoked_reason'])
      .where('r.token_hash', '=', hashOf(first.refresh_token))
      .executeTakeFirstOrThrow();
    expect(family.revoked_reason).toBe('refresh_token_reuse');
    expect(family.revoked_at).not.toBeNull();
  });

  it('refuses a refresh token of another client, and an unknown one', async () => {
    const first = await login();
    const other = await createClient(t.deps, 'first_party');
    expect((await refresh(t.app, other, first.refresh_token)).json()).toMatchObject({
      http: 400,
      error: 'invalid_grant',
    });
    expect((await refresh(t.app, client, 'not-a-token')).json()).toMatchObject({ http: 400, error: 'invalid_grant' });
    // the refusal to the other client did not burn the token
    expect((await refresh(t.app, client, first.refresh_token)).statusCode).toBe(200);
  });

  it('serialises two concurrent refreshes with one token: the later is the replay, and only its pair lives', async () => {
    const first = await login();
    const results = await Promise.all([
      refresh(t.app, client, first.refresh_token),
      refresh(t.app, client, first.refresh_token),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const live = await Promise.all(results.map(async (r) => (await self(r.json().access_token)).statusCode));
    expect(live.sort()).toEqual([200, 401]);
  });

  it('ends the family one year after login, however often it was refreshed', async () => {
    let pair = await login();
    const steps = Math.ceil(FAMILY_LIFETIME_SECONDS / ACCESS_TOKEN_SECONDS);
    for (let i = 1; i < steps; i++) {
      t.clock.advance(ACCESS_TOKEN_SECONDS - 60);
      const res = await refresh(t.app, client, pair.refresh_token);
      expect(res.statusCode).toBe(200);
      pair = res.json();
    }
    // now less than one access lifetime remains; the last access token ends with the family
    t.clock.advance(FAMILY_LIFETIME_SECONDS - (steps - 1) * (ACCESS_TOKEN_SECONDS - 60));
    const expired = await self(pair.access_token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('TokenExpired');
    const res = await refresh(t.app, client, pair.refresh_token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'invalid_grant',
      message: 'The refresh token has expired: log in again',
    });
  });

  it('says in expires_in how long the token lives: a refresh near the end of the login gets what is left', async () => {
    const pair = await login();
    const left = 1000;
    t.clock.advance(FAMILY_LIFETIME_SECONDS - left);
    const res = await refresh(t.app, client, pair.refresh_token);
    expect(res.statusCode, res.body).toBe(200);
    const last = res.json() as { access_token: string; expires_in: number };
    expect(last.expires_in).toBe(left);
    t.clock.advance(left - 1);
    expect((await self(last.access_token)).statusCode).toBe(200);
    t.clock.advance(1);
    const expired = await self(last.access_token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('TokenExpired');
  });

  it('passes the family MFA flag on to refreshed pairs', async () => {
    const first = await login();
    await t.deps.db
      .updateTable('token_families')
      .set({ mfa_validated: true })
      .where('id', '=', familyOf(first.refresh_token))
      .execute();
    const second = (await refresh(t.app, client, first.refresh_token)).json();
    const family = await t.deps.db
      .selectFrom('access_tokens as a')
      .innerJoin('token_families as f', 'f.id', 'a.family')
      .select('f.mfa_validated')
      .where('a.token_hash', '=', hashOf(second.access_token))
      .executeTakeFirstOrThrow();
    expect(family.mfa_validated).toBe(true);
  });

  function familyOf(refreshToken: string) {
    return t.deps.db.selectFrom('refresh_tokens').select('family').where('token_hash', '=', hashOf(refreshToken));
  }
});
