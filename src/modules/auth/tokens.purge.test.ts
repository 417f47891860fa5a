// The hourly purge: expired rows a day after they expire, a revoked family a day after its revocation with its
// tokens (no foreign key cascades them any more), and nothing of a live login.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createClient, createUser } from '../../../test/helpers/factories.js';
import { hashToken } from '../../lib/crypto.js';
import { purgeExpiredTokens } from './tokens.purge.js';
import { revokeFamily } from './tokens.repository.js';
import { issueNewFamily } from './tokens.service.js';

describe('auth.purge-expired-tokens', () => {
  const t = useTestApp();

  async function login() {
    const [user, client] = await Promise.all([createUser(t.deps), createClient(t.deps, 'first_party')]);
    return issueNewFamily(t.deps.db, t.clock, {
      user: user.id,
      client: client.id,
      brand: null,
      grantType: 'password',
      mfaValidated: false,
      withRefreshToken: true,
    });
  }

  async function rowsOf(tokens: { family: string; access_token: string; refresh_token?: string }) {
    const [family, access, refresh] = await Promise.all([
      t.deps.db.selectFrom('token_families').select('id').where('id', '=', tokens.family).execute(),
      t.deps.db
        .selectFrom('access_tokens')
        .select('family')
        .where('token_hash', '=', hashToken(tokens.access_token))
        .execute(),
      t.deps.db
        .selectFrom('refresh_tokens')
        .select('family')
        .where('token_hash', '=', hashToken(tokens.refresh_token!))
        .execute(),
    ]);
    return { family: family.length, access: access.length, refresh: refresh.length };
  }

  it('deletes a revoked family with its tokens a day after the revocation, and keeps a live login', async () => {
    const revoked = await login();
    const live = await login();
    await revokeFamily(t.deps.db, revoked.family, t.clock.now(), 'test');

    t.clock.advance(23 * 3600);
    await purgeExpiredTokens(t.deps);
    expect(await rowsOf(revoked)).toEqual({ family: 1, access: 1, refresh: 1 });

    t.clock.advance(2 * 3600);
    const purged = await purgeExpiredTokens(t.deps);
    expect(await rowsOf(revoked)).toEqual({ family: 0, access: 0, refresh: 0 });
    expect(purged).toMatchObject({ families: 1, accessTokens: 1, refreshTokens: 1 });
    expect(await rowsOf(live)).toEqual({ family: 1, access: 1, refresh: 1 });
  });
});
