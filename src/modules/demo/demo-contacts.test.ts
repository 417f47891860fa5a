// Demo contacts: counts per demo brand, birthdays over the whole year, idempotent, visible to the office agent.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, tokenFor } from '../../../test/helpers/factories.js';
import { seedDemoWorld, type DemoWorld } from './demo-seed.js';
import { seedDemoContacts } from './demo-contacts.js';

const t = useTestApp();
let world: DemoWorld;
let first: Awaited<ReturnType<typeof seedDemoContacts>>;
beforeAll(async () => {
  world = await seedDemoWorld(t.deps);
  first = await seedDemoContacts(t.deps);
});

describe('demo contacts', () => {
  it('creates a few hundred contacts in the demo brands, then nothing on a re-run', async () => {
    expect(first.map((s) => s.created)).toEqual([160, 120, 40]);
    const again = await seedDemoContacts(t.deps);
    expect(again.map((s) => s.created)).toEqual([0, 0, 0]);
    // every demo brand but the region holds contacts
    expect(again.map((s) => s.brand).sort()).toEqual(
      world.brands
        .filter((b) => !b.name.endsWith('North Texas'))
        .map((b) => b.id)
        .sort(),
    );
  });

  it("gives each book's brand one website lead channel, owned by its agent, and no second one on a re-run", async () => {
    await seedDemoContacts(t.deps);
    const channels = await t.deps.db
      .selectFrom('lead_channels')
      .select(['brand', 'user_id', 'source_type'])
      .where('deleted_at', 'is', null)
      .execute();
    const emailOf = new Map(world.users.map((u) => [u.id, u.email]));
    const nameOf = new Map(world.brands.map((b) => [b.id, b.name]));
    expect(channels.map((c) => `${nameOf.get(c.brand)} ${emailOf.get(c.user_id!)} ${c.source_type}`).sort()).toEqual([
      'Demo Realty Downtown dana.reyes@demo.example.com Website',
      'Demo Realty Uptown uma.patel@demo.example.com Website',
      'Demo Realty admin@demo.example.com Website',
    ]);
  });

  it('spreads birthdays and anniversaries over the year, some without a year', async () => {
    const rows = await t.deps.db
      .selectFrom('contacts')
      .select(['brand', 'birthday', 'home_anniversary', 'wedding_anniversary'])
      .where('created_for', '=', 'demo_seed')
      .execute();
    for (const brand of world.brands.filter((b) => !b.name.endsWith('North Texas'))) {
      const months = new Set(rows.filter((r) => r.brand === brand.id).map((r) => r.birthday!.slice(5, 7)));
      expect(months.size).toBe(12);
    }
    expect(rows.filter((r) => r.birthday!.startsWith('0000-')).length).toBeGreaterThan(10);
    expect(rows.filter((r) => r.home_anniversary).length).toBeGreaterThan(50);
    expect(rows.filter((r) => r.wedding_anniversary).length).toBeGreaterThan(50);
  });

  it('the downtown agent lists hers; the marketing assistant without CRM cannot', async () => {
    const dana = world.users.find((u) => u.email === 'dana.reyes@demo.example.com')!;
    const sam = world.users.find((u) => u.email === 'sam.lee@demo.example.com')!;
    const downtown = dana.memberships[0]!.brand;
    const list = await t.app.inject({
      method: 'GET',
      url: '/contacts?q=a&limit=5',
      headers: { ...bearer(await tokenFor(t.deps, dana.id)), 'x-rechat-brand': downtown },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().info.count).toBe(5);
    const all = await t.app.inject({
      method: 'GET',
      url: '/contacts',
      headers: { ...bearer(await tokenFor(t.deps, dana.id)), 'x-rechat-brand': downtown },
    });
    expect(all.json().info.total).toBe(160);
    expect(all.json().data[0].user_id).toBe(dana.id);
    const denied = await t.app.inject({
      method: 'GET',
      url: '/contacts',
      headers: { ...bearer(await tokenFor(t.deps, sam.id)), 'x-rechat-brand': downtown },
    });
    expect(denied.statusCode).toBe(403);
  });
});
