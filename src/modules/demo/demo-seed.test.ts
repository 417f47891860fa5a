// The demo world: exact JSON shape, idempotency, working secrets, the access it sets up, first start.
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { verifyPassword } from '../../lib/passwords.js';
import { clientSecretMatches } from '../auth/clients.service.js';
import { requireAccess } from '../brands/access.js';
import type { Actor } from '../auth/authenticate.js';
import { seedDemoWorld, type DemoWorld } from './demo-seed.js';
import { prepareEmbedded } from '../../bootstrap.js';
import { demoSeedStep } from './demo-seed.first-start.js';

const actorFor = (userId: string): Actor => ({
  userId,
  client: 'c',
  clientId: 'c',
  clientKind: 'first_party',
  family: 'f',
  boundBrand: null,
  mfaValidated: true,
  activeBrand: null,
});

describe('demo world', () => {
  const t = useTestApp();
  let world: DemoWorld;
  beforeAll(async () => {
    world = await seedDemoWorld(t.deps);
  });

  it('has exactly the documented JSON shape', () => {
    expect(Object.keys(world).sort()).toEqual(['brands', 'clients', 'users']);
    expect(Object.keys(world.clients.first_party).sort()).toEqual(['client_id', 'client_secret']);
    expect(Object.keys(world.clients.partner).sort()).toEqual(['client_id', 'client_secret', 'redirect_uris']);
    expect(Object.keys(world.clients.public).sort()).toEqual(['client_id', 'redirect_uris']);
    expect(world.clients.partner.redirect_uris).toEqual([
      'http://127.0.0.1:8787/callback',
      'http://localhost:8787/callback',
    ]);
    expect(world.clients.public.redirect_uris).toEqual(world.clients.partner.redirect_uris);
    expect(world.brands).toHaveLength(4);
    for (const brand of world.brands) expect(Object.keys(brand).sort()).toEqual(['id', 'name', 'parent']);
    const [brokerage, downtown, uptown, region] = world.brands;
    expect(brokerage!.parent).toBeNull();
    expect(region).toMatchObject({ name: 'Demo Realty North Texas', parent: brokerage!.id });
    for (const office of [downtown!, uptown!]) expect(office.parent).toBe(region!.id);
    expect(world.users).toHaveLength(4);
    for (const user of world.users) {
      expect(Object.keys(user).sort()).toEqual(['email', 'id', 'memberships', 'password']);
      expect(user.password.length).toBeGreaterThanOrEqual(16);
      for (const m of user.memberships) expect(Object.keys(m).sort()).toEqual(['acl', 'brand']);
    }
    expect(JSON.parse(JSON.stringify(world))).toEqual(world);
  });

  it('re-running prints the same document and writes nothing', async () => {
    const snapshot = async () => ({
      users: await t.deps.db.selectFrom('users').select(['id', 'updated_at', 'password_hash']).orderBy('id').execute(),
      brands: await t.deps.db.selectFrom('brands').select(['id', 'updated_at']).orderBy('id').execute(),
      memberships: await t.deps.db
        .selectFrom('memberships')
        .select(['id', 'updated_at', 'acl'])
        .orderBy('id')
        .execute(),
      clients: await t.deps.db
        .selectFrom('oauth_clients')
        .select(['id', 'updated_at', 'secret_hash'])
        .orderBy('id')
        .execute(),
    });
    const before = await snapshot();
    t.clock.advance(60);
    expect(await seedDemoWorld(t.deps)).toEqual(world);
    expect(await snapshot()).toEqual(before);
  });

  it('keeps the world it made during a rotation of SECRET_KEY, the old key then previous', async () => {
    const rotated = {
      ...t.deps,
      config: { ...t.deps.config, secretKey: Buffer.alloc(32, 0x5a), previousSecretKeys: [t.deps.config.secretKey] },
    };
    expect(await seedDemoWorld(rotated)).toEqual(world);
  });

  it('prints passwords and client secrets that work', async () => {
    for (const user of world.users) {
      const row = await t.deps.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(await verifyPassword(row.password_hash, user.password)).toBe(true);
    }
    for (const [clientId, secret] of [
      [world.clients.first_party.client_id, world.clients.first_party.client_secret],
      [world.clients.partner.client_id, world.clients.partner.client_secret],
    ] as const) {
      const row = await t.deps.db
        .selectFrom('oauth_clients')
        .select(['secret_hash', 'kind'])
        .where('client_id', '=', clientId)
        .executeTakeFirstOrThrow();
      expect(clientSecretMatches(row.secret_hash, secret)).toBe(true);
    }
    const pub = await t.deps.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('client_id', '=', world.clients.public.client_id)
      .executeTakeFirstOrThrow();
    expect(pub).toMatchObject({ kind: 'public', secret_hash: null });
  });

  it('sets up the access the docs promise', async () => {
    const [brokerage, downtown, uptown] = world.brands.map((b) => b.id) as [string, string, string];
    const [admin, dana, uma, sam] = world.users.map((u) => u.id) as [string, string, string, string];
    const can = (user: string, brand: string, word: 'Admin' | 'CRM' | 'Marketing' | 'Deals') =>
      requireAccess(t.deps.db, actorFor(user), brand, word).then(
        () => true,
        () => false,
      );
    expect(world.users[0]!.memberships).toEqual([{ brand: brokerage, acl: ['Admin', 'CRM', 'Marketing', 'Deals'] }]);
    for (const office of [downtown, uptown]) expect(await can(admin, office, 'Admin')).toBe(true);
    expect(await can(dana, downtown, 'CRM')).toBe(true);
    expect(await can(dana, uptown, 'CRM')).toBe(false);
    expect(await can(uma, uptown, 'Deals')).toBe(true);
    expect(await can(uma, uptown, 'Marketing')).toBe(false);
    expect(await can(sam, downtown, 'Marketing')).toBe(true);
    expect(await can(sam, downtown, 'CRM')).toBe(false);
  });

  it('puts back a demo password, client and brand that drifted', async () => {
    const dana = world.users[1]!;
    await t.deps.db.updateTable('users').set({ password_hash: null }).where('id', '=', dana.id).execute();
    await t.deps.db
      .updateTable('oauth_clients')
      .set({ deleted_at: new Date() })
      .where('client_id', '=', 'demo-partner')
      .execute();
    await t.deps.db.updateTable('brands').set({ name: 'Renamed' }).where('id', '=', world.brands[2]!.id).execute();
    await t.deps.db.updateTable('memberships').set({ acl: [] }).where('user', '=', dana.id).execute();
    expect(await seedDemoWorld(t.deps)).toEqual(world);
    const row = await t.deps.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', dana.id)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash, dana.password)).toBe(true);
    const client = await t.deps.db
      .selectFrom('oauth_clients')
      .select('deleted_at')
      .where('client_id', '=', 'demo-partner')
      .executeTakeFirstOrThrow();
    expect(client.deleted_at).toBeNull();
    const brand = await t.deps.db
      .selectFrom('brands')
      .select('name')
      .where('id', '=', world.brands[2]!.id)
      .executeTakeFirstOrThrow();
    expect(brand.name).toBe('Demo Realty Uptown');
    const membership = await t.deps.db
      .selectFrom('memberships')
      .select('acl')
      .where('user', '=', dana.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(membership.acl.sort()).toEqual(['CRM', 'Deals', 'Marketing']);
  });

  it('gives the brokerage a palette whose logos this server serves; the offices inherit it through the region', async () => {
    const [, downtown] = world.brands;
    const profile = await t.app.inject({
      url: `/brands/${downtown!.id}?associations[]=brand.parent&associations[]=brand.settings`,
    });
    const office = profile.json().data;
    expect(office.parent).toMatchObject({ brand_type: 'Region', parent: { brand_type: 'Brokerage' } });
    const palette = office.settings.marketing_palette;
    expect(palette['button-bg-color']).toMatch(/^#[0-9a-f]{6}$/);
    const logo = new URL(palette['container-logo-wide']);
    expect(logo.origin).toBe(new URL(t.deps.config.baseUrl).origin);
    const svg = await t.app.inject({ url: logo.pathname });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.body).toContain('<svg');
    expect((await t.app.inject({ url: '/demo/logos/nope.svg' })).statusCode).toBe(404);
  });

  it('survives two seeds at once', async () => {
    const [a, b] = await Promise.all([seedDemoWorld(t.deps), seedDemoWorld(t.deps)]);
    expect(a).toEqual(world);
    expect(b).toEqual(world);
  });
});

describe('first start of an embedded server', () => {
  const t = useTestApp();

  it('seeds an empty database once and writes DATA_DIR/demo.json with mode 0600', async () => {
    const embedded = { ...t.deps, config: { ...t.deps.config, embedded: true } };
    await prepareEmbedded({ ...embedded, config: { ...embedded.config, embedded: false } }, [demoSeedStep]);
    expect(await t.deps.db.selectFrom('users').select('id').execute()).toHaveLength(0);

    await prepareEmbedded(embedded, [demoSeedStep]);
    const file = join(t.deps.config.dataDir, 'demo.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = JSON.parse(readFileSync(file, 'utf8')) as DemoWorld;
    expect(written).toEqual(await seedDemoWorld(t.deps));

    const before = statSync(file).mtimeMs;
    await prepareEmbedded(embedded, [demoSeedStep]); // completed: nothing happens
    expect(statSync(file).mtimeMs).toBe(before);
  });
});
