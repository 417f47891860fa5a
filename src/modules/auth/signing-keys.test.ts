// The id_token signing keys (docs/openid-connect.md "Signing keys"): made once at first need, stored sealed,
// rotated by `gable admin keys rotate` — published at once, signing after the delay, the old key kept until its
// id_tokens have expired and then dropped.
import { decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runAdminCommand } from '../../../test/helpers/cli.js';
import { codeFlow, verifyIdToken } from '../../../test/helpers/openid.js';
import { createWorld, type World } from '../../../test/helpers/web.js';
import { registerSigningKeyCommands } from './keys.cli.js';
import { purgeExpiredTokens } from './tokens.purge.js';

describe('id_token signing keys', () => {
  const t = useTestApp();
  let world: World;
  beforeAll(async () => {
    world = await createWorld(t.deps);
  });
  const partner = () => ({ client_id: world.partner.client_id, client_secret: world.partner.client_secret });
  const jwksKids = async () =>
    ((await t.app.inject({ method: 'GET', url: '/oauth2/jwks' })).json().keys as { kid: string; alg: string }[]).map(
      (key) => `${key.alg}:${key.kid}`,
    );
  const signIn = async () => (await codeFlow(t.app, world, partner(), { scope: 'openid' })).id_token!;
  const kidOf = (idToken: string) => decodeProtectedHeader(idToken).kid;
  const rotate = async () => {
    const run = await runAdminCommand(registerSigningKeyCommands, t.deps, 'keys', 'rotate', '--json');
    expect(run.exitCode).toBeUndefined();
    return JSON.parse(run.out) as {
      added: { kid: string; alg: string; signs_from: string }[];
      dropped: { kid: string; alg: string }[];
      published: { kid: string; alg: string }[];
    };
  };

  it('makes one key per alg at first need, also when several requests need them at once', async () => {
    const answers = await Promise.all([jwksKids(), jwksKids(), jwksKids()]);
    expect(answers[0]).toHaveLength(2);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const rows = await t.deps.db.selectFrom('signing_keys').select(['kid', 'alg']).execute();
    expect(rows.map((row) => `${row.alg}:${row.kid}`).sort()).toEqual([...answers[0]!].sort());
  });

  it('stores the private keys sealed: no private JWK or PEM in clear in the table', async () => {
    const rows = await t.deps.db.selectFrom('signing_keys').selectAll().execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const stored = JSON.stringify(row);
      expect(stored).not.toContain('PRIVATE KEY');
      expect(row.public_jwk).not.toHaveProperty('d');
      expect(row.private_jwk_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      const opened = JSON.parse(t.deps.secrets.decrypt(row.private_jwk_sealed)) as { d: string; kid: string };
      expect(opened.kid).toBe(row.kid);
      expect(opened.d.length).toBeGreaterThan(20);
      expect(stored).not.toContain(opened.d);
    }
  });

  it('publishes a rotated key at once, signs with it after an hour, and drops the old one after its tokens', async () => {
    const before = await jwksKids();
    const oldToken = await signIn();
    const oldKid = kidOf(oldToken);
    const issuedAt = t.clock.now();

    const rotation = await rotate();
    expect(rotation.added.map((key) => key.alg)).toEqual(['RS256', 'ES256']);
    expect(rotation.added[0]!.signs_from).toBe(new Date(issuedAt.getTime() + 3600_000).toISOString());
    expect(rotation.dropped).toEqual([]);
    const newRs = `RS256:${rotation.added[0]!.kid}`;
    const during = await jwksKids();
    expect(during).toHaveLength(4);
    expect(during).toEqual(expect.arrayContaining([...before, newRs]));

    // Published, not yet signing: relying parties get an hour to fetch it.
    t.clock.advance(30 * 60);
    expect(kidOf(await signIn())).toBe(oldKid);

    t.clock.advance(30 * 60 + 1);
    const newToken = await signIn();
    expect(kidOf(newToken)).toBe(rotation.added[0]!.kid);
    expect((await verifyIdToken(t.app, newToken, world.partner.client_id, t.clock.now())).payload.sub).toBe(
      world.user.id,
    );
    // The old key still verifies what it signed, until the last of those has expired (1 h + 5 min of skew).
    expect(await jwksKids()).toContain(`RS256:${oldKid}`);
    await verifyIdToken(t.app, oldToken, world.partner.client_id, issuedAt);

    t.clock.advance(3600 + 300);
    const after = await jwksKids();
    expect(after).not.toContain(`RS256:${oldKid}`);
    expect(after).toContain(newRs);
    expect(after).toHaveLength(2);
    await expect(verifyIdToken(t.app, oldToken, world.partner.client_id, issuedAt)).rejects.toThrow(
      /no applicable key found/,
    );

    // The hourly purge deletes the dropped rows; nothing else.
    await purgeExpiredTokens(t.deps);
    const rows = await t.deps.db.selectFrom('signing_keys').select(['alg', 'kid']).execute();
    expect(rows.map((row) => `${row.alg}:${row.kid}`).sort()).toEqual([...after].sort());
  });

  it('drops keys past their retention at the next rotation, and says so', async () => {
    const first = await rotate();
    const added = (rotation: typeof first) => rotation.added.map((key) => key.kid);
    const replaced = first.published.map((key) => key.kid).filter((kid) => !added(first).includes(kid));
    expect(replaced).toHaveLength(2); // the keys signing before: the previous test's, its older ones purged
    t.clock.advance(3600 + 1); // `first`'s keys sign from now
    const second = await rotate();
    expect(second.dropped).toEqual([]); // the keys `first` replaced still cover their id_tokens
    t.clock.advance(3600 + 300); // `second`'s keys sign, and `replaced` has been out of use for over 1 h 5 min
    const third = await rotate();
    expect(third.dropped.map((key) => key.kid).sort()).toEqual([...replaced].sort());
    expect(third.published.map((key) => key.kid).sort()).toEqual(
      [...added(first), ...added(second), ...added(third)].sort(),
    );
  });
});
