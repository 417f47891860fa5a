// Brand context (decisions §1, §2): X-RECHAT-BRAND, active brand, newest membership; across two offices.
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from '../../../test/helpers/factories.js';
import type { Actor } from '../auth/authenticate.js';
import { brandContext, requireBrandContext } from './brand-context.js';

describe('brand context', () => {
  const t = useTestApp();
  let brokerage: string, officeA: string, officeB: string;
  let admin: string, agentA: string;
  beforeAll(async () => {
    brokerage = (await createBrand(t.deps, { name: 'Brokerage' })).id;
    officeA = (await createBrand(t.deps, { name: 'Office A', parent: brokerage, brand_type: 'Office' })).id;
    officeB = (await createBrand(t.deps, { name: 'Office B', parent: brokerage, brand_type: 'Office' })).id;
    admin = (await createUser(t.deps)).id;
    await addMembership(t.deps, admin, brokerage, ['Admin', 'CRM', 'Marketing', 'Deals']);
    agentA = (await createUser(t.deps)).id;
    await addMembership(t.deps, agentA, officeA, ['CRM']);
  });

  const getSelf = async (user: string, brandHeader?: string, tokenBrand?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/users/self',
      headers: {
        ...bearer(await tokenFor(t.deps, user, tokenBrand ? { brand: tokenBrand } : {})),
        ...(brandHeader ? { 'X-RECHAT-BRAND': brandHeader } : {}),
      },
    });
  const setActive = async (user: string, brandHeader?: string) =>
    t.app.inject({
      method: 'PATCH',
      url: '/users/self/active-brand',
      headers: { ...bearer(await tokenFor(t.deps, user)), ...(brandHeader ? { 'x-rechat-brand': brandHeader } : {}) },
    });

  it('answers 400 for a malformed header', async () => {
    const res = await getSelf(agentA, 'office-a');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'Validation' });
    expect(res.json().attributes['X-RECHAT-BRAND']).toBeDefined();
  });

  it('keeps an office user out of the other office and the brokerage (403)', async () => {
    expect((await getSelf(agentA, officeB)).statusCode).toBe(403);
    expect((await getSelf(agentA, brokerage)).json()).toMatchObject({ http: 403, code: 'AccessForbidden' });
    expect((await getSelf(agentA, '9d1c2b43-0000-4000-8000-000000000000')).statusCode).toBe(403);
    const own = await getSelf(agentA, officeA.toUpperCase());
    expect(own.statusCode).toBe(200);
    expect(own.json().data.brand).toBe(officeA);
  });

  it('lets the brokerage admin act in both offices', async () => {
    for (const office of [officeA, officeB]) {
      const res = await getSelf(admin, office);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ brand: office, active_brand: brokerage });
    }
  });

  it('keeps a brand-bound token inside its brand, and uses that brand without a header', async () => {
    expect((await getSelf(admin, officeB, officeA)).statusCode).toBe(403);
    expect((await getSelf(admin, undefined, officeA)).json().data.brand).toBe(officeA);
  });

  it('PATCH /users/self/active-brand needs the header and a reachable brand', async () => {
    expect((await setActive(agentA)).statusCode).toBe(400);
    expect((await setActive(agentA, 'nope')).statusCode).toBe(400);
    expect((await setActive(agentA, officeB)).statusCode).toBe(403);
  });

  it('PATCH /users/self/active-brand stores the brand; later requests use it', async () => {
    const user = (await createUser(t.deps)).id;
    await addMembership(t.deps, user, brokerage, ['CRM']);
    const res = await setActive(user, officeB);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: user, type: 'user', brand: officeB, active_brand: officeB });
    const after = await getSelf(user);
    expect(after.json().data).toMatchObject({ brand: officeB, active_brand: officeB });
    const override = await getSelf(user, officeA);
    expect(override.json().data).toMatchObject({ brand: officeA, active_brand: officeB });
  });

  describe('brandContext()', () => {
    const request = (actor: Partial<Actor> & { userId: string | null }, header?: string) =>
      ({
        headers: header ? { 'x-rechat-brand': header } : {},
        actor: {
          client: 'c',
          clientId: 'c',
          clientKind: 'first_party',
          family: 'f',
          boundBrand: null,
          mfaValidated: true,
          activeBrand: null,
          ...actor,
        },
      }) as unknown as FastifyRequest;

    it('falls back to the active brand, then the newest membership', async () => {
      const user = (await createUser(t.deps)).id;
      await addMembership(t.deps, user, officeA, ['CRM']);
      // created_at is insert-only in the table types: backdate the first membership with plain SQL
      await sql`update memberships set created_at = now() - interval '1 minute' where "user" = ${user}`.execute(
        t.deps.db,
      );
      await addMembership(t.deps, user, officeB, []);
      expect(await brandContext(t.deps, request({ userId: user }))).toBe(officeB);
      expect(await brandContext(t.deps, request({ userId: user, activeBrand: officeA }))).toBe(officeA);
      expect(await brandContext(t.deps, request({ userId: user, activeBrand: officeA }, officeB))).toBe(officeB);
    });

    it('is null (and required → 400) for a user without memberships', async () => {
      const loner = (await createUser(t.deps)).id;
      expect(await brandContext(t.deps, request({ userId: loner }))).toBeNull();
      await expect(requireBrandContext(t.deps, request({ userId: loner }))).rejects.toMatchObject({ http: 400 });
    });
  });
});
