// requireAccess / reachableBrandIds: the one access check (decisions §2).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { addMembership, createBrand, createUser } from '../../../test/helpers/factories.js';
import type { Actor } from '../auth/authenticate.js';
import { brandReach, reachableBrandIds, requireAccess, subtreeIds, type Permission } from './access.js';

const actorFor = (userId: string | null, boundBrand: string | null = null): Actor => ({
  userId,
  client: '00000000-0000-4000-8000-000000000000',
  clientId: 'test',
  clientKind: 'first_party',
  family: '00000000-0000-4000-8000-000000000001',
  boundBrand,
  mfaValidated: true,
  activeBrand: null,
});

describe('brand access', () => {
  const t = useTestApp();
  // brokerage → office A → team A1; brokerage → office B
  let brokerage: string, officeA: string, teamA1: string, officeB: string;
  beforeAll(async () => {
    brokerage = (await createBrand(t.deps, { name: 'Brokerage', brand_type: 'Brokerage' })).id;
    officeA = (await createBrand(t.deps, { name: 'Office A', parent: brokerage, brand_type: 'Office' })).id;
    teamA1 = (await createBrand(t.deps, { name: 'Team A1', parent: officeA, brand_type: 'Team' })).id;
    officeB = (await createBrand(t.deps, { name: 'Office B', parent: brokerage, brand_type: 'Office' })).id;
  });

  const allows = async (actor: Actor, brand: string, permission: Permission) =>
    requireAccess(t.deps.db, actor, brand, permission).then(
      () => true,
      (error: { http?: number }) => {
        if (error.http !== 403) throw error;
        return false;
      },
    );

  it('inherits access downward through every ancestor, never upward or sideways', async () => {
    const admin = await createUser(t.deps);
    await addMembership(t.deps, admin.id, brokerage, ['Admin']);
    const agent = await createUser(t.deps);
    await addMembership(t.deps, agent.id, officeA, ['CRM']);
    for (const brand of [brokerage, officeA, teamA1, officeB])
      expect(await allows(actorFor(admin.id), brand, 'Admin')).toBe(true);
    expect(await allows(actorFor(agent.id), officeA, 'CRM')).toBe(true);
    expect(await allows(actorFor(agent.id), teamA1, 'CRM')).toBe(true);
    expect(await allows(actorFor(agent.id), brokerage, 'Member')).toBe(false);
    expect(await allows(actorFor(agent.id), officeB, 'Member')).toBe(false);
  });

  it('checks the ACL word and adds up the words of every membership in the chain', async () => {
    const user = await createUser(t.deps);
    await addMembership(t.deps, user.id, brokerage, ['Deals']);
    await addMembership(t.deps, user.id, officeA, ['CRM']);
    expect(await allows(actorFor(user.id), teamA1, 'CRM')).toBe(true);
    expect(await allows(actorFor(user.id), teamA1, 'Deals')).toBe(true);
    expect(await allows(actorFor(user.id), teamA1, 'Marketing')).toBe(false);
    expect(await allows(actorFor(user.id), officeB, 'CRM')).toBe(false);
    expect(await allows(actorFor(user.id), officeB, 'Deals')).toBe(true);
    const reach = await brandReach(t.deps.db, user.id, teamA1);
    expect(reach?.chain).toEqual([teamA1, officeA, brokerage]);
    expect([...(reach?.acl ?? [])].sort()).toEqual(['CRM', 'Deals']);
  });

  it('lets a membership with no ACL words reach the brand as a plain member', async () => {
    const user = await createUser(t.deps);
    await addMembership(t.deps, user.id, officeB, []);
    expect(await allows(actorFor(user.id), officeB, 'Member')).toBe(true);
    expect(await allows(actorFor(user.id), officeB, 'CRM')).toBe(false);
  });

  it('ignores deleted memberships and deleted brands', async () => {
    const user = await createUser(t.deps);
    const membership = await addMembership(t.deps, user.id, officeA, ['CRM']);
    await t.deps.db
      .updateTable('memberships')
      .set({ deleted_at: new Date() })
      .where('id', '=', membership.id)
      .execute();
    expect(await allows(actorFor(user.id), officeA, 'Member')).toBe(false);

    const doomed = (await createBrand(t.deps, { name: 'Doomed', parent: brokerage })).id;
    const child = (await createBrand(t.deps, { name: 'Doomed child', parent: doomed })).id;
    const member = await createUser(t.deps);
    await addMembership(t.deps, member.id, doomed, ['CRM']);
    expect(await allows(actorFor(member.id), child, 'CRM')).toBe(true);
    await t.deps.db.updateTable('brands').set({ deleted_at: new Date() }).where('id', '=', doomed).execute();
    expect(await allows(actorFor(member.id), doomed, 'Member')).toBe(false);
    expect(await allows(actorFor(member.id), child, 'Member')).toBe(false);
    expect(await reachableBrandIds(t.deps.db, member.id)).toEqual([]);
  });

  it('keeps a brand-bound token inside its brand subtree', async () => {
    const admin = await createUser(t.deps);
    await addMembership(t.deps, admin.id, brokerage, ['Admin', 'CRM']);
    const bound = actorFor(admin.id, officeA);
    expect(await allows(bound, officeA, 'CRM')).toBe(true);
    expect(await allows(bound, teamA1, 'CRM')).toBe(true);
    expect(await allows(bound, officeB, 'CRM')).toBe(false);
    expect(await allows(bound, brokerage, 'CRM')).toBe(false);
    expect((await reachableBrandIds(t.deps.db, admin.id, officeA)).sort()).toEqual([officeA, teamA1].sort());
  });

  it('denies client tokens, unknown and malformed brands; 404 when asked to hide existence', async () => {
    const user = await createUser(t.deps);
    await addMembership(t.deps, user.id, brokerage, ['Admin']);
    expect(await allows(actorFor(null), brokerage, 'Member')).toBe(false);
    expect(await allows(actorFor(user.id), '7b0b5f3e-0000-4000-8000-000000000000', 'Member')).toBe(false);
    expect(await allows(actorFor(user.id), 'not-a-uuid', 'Member')).toBe(false);
    await expect(
      requireAccess(t.deps.db, actorFor(user.id), officeB, 'CRM', { denied: 'notFound' }),
    ).rejects.toMatchObject({ http: 404 });
  });

  it('lists reachable brands: memberships and all their live descendants', async () => {
    const user = await createUser(t.deps);
    await addMembership(t.deps, user.id, officeA, ['CRM']);
    expect((await reachableBrandIds(t.deps.db, user.id)).sort()).toEqual([officeA, teamA1].sort());
    expect((await subtreeIds(t.deps.db, officeA)).sort()).toEqual([officeA, teamA1].sort());
  });
});
