// Operator actions behind `gable admin brand|member|user …`: validation and clear errors.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, tokenFor } from '../../../test/helpers/factories.js';
import { verifyPassword } from '../../lib/passwords.js';
import { createAccount, setAccountPassword } from '../users/users.admin.js';
import { addMember, createBrand, listBrands, parseAcl, removeMember } from './brands.service.js';

describe('operator actions', () => {
  const t = useTestApp();

  it('creates brands with a type that follows the parent unless given', async () => {
    const root = await createBrand(t.deps.db, { name: '  Acme Realty ' });
    expect(root).toMatchObject({ name: 'Acme Realty', parent: null, brand_type: 'Brokerage' });
    const office = await createBrand(t.deps.db, { name: 'Acme North', parent: root.id });
    expect(office).toMatchObject({ parent: root.id, brand_type: 'Office' });
    const team = await createBrand(t.deps.db, { name: 'Team Z', parent: office.id, type: 'Team' });
    expect(team.brand_type).toBe('Team');
    const listed = await listBrands(t.deps.db);
    expect(listed.map((b) => b.id)).toEqual(expect.arrayContaining([root.id, office.id, team.id]));
  });

  it('refuses bad brand input with a message naming the problem', async () => {
    await expect(createBrand(t.deps.db, { name: ' ' })).rejects.toMatchObject({
      http: 400,
      message: expect.stringContaining('name'),
    });
    await expect(createBrand(t.deps.db, { name: 'X', type: 'Franchise' })).rejects.toMatchObject({
      http: 400,
      message: expect.stringContaining('Brokerage, Region, Office, Team, Personal, Other'),
    });
    await expect(createBrand(t.deps.db, { name: 'X', parent: 'nope' })).rejects.toMatchObject({ http: 400 });
    await expect(
      createBrand(t.deps.db, { name: 'X', parent: '2a7d1c5e-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({ http: 404 });
  });

  it('parses ACL words case-insensitively and refuses unknown ones', () => {
    expect(parseAcl('admin, CRM,crm,Deals')).toEqual(['Admin', 'CRM', 'Deals']);
    expect(parseAcl('')).toEqual([]);
    expect(() => parseAcl('CRM,Owner')).toThrow(/"Owner" is not an ACL word/);
  });

  it('creates accounts and refuses duplicates (any case), bad emails, zones and short passwords', async () => {
    const created = await createAccount(t.deps.db, {
      email: 'Pat@Example.com',
      password: 'long enough',
      firstName: 'Pat',
      timezone: 'Europe/Paris',
    });
    const row = await t.deps.db.selectFrom('users').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ first_name: 'Pat', timezone: 'Europe/Paris' });
    expect(await verifyPassword(row.password_hash, 'long enough')).toBe(true);
    await expect(createAccount(t.deps.db, { email: 'pat@example.COM', password: null })).rejects.toMatchObject({
      http: 409,
    });
    await expect(createAccount(t.deps.db, { email: 'not an email', password: null })).rejects.toMatchObject({
      http: 400,
    });
    await expect(
      createAccount(t.deps.db, { email: 'zone@example.com', password: null, timezone: 'Nowhere/Land' }),
    ).rejects.toMatchObject({ http: 400 });
    await expect(createAccount(t.deps.db, { email: 'short@example.com', password: 'short' })).rejects.toMatchObject({
      http: 400,
    });
    const bare = await createAccount(t.deps.db, { email: 'nopass@example.com', password: null });
    expect(
      (await t.deps.db.selectFrom('users').select('password_hash').where('id', '=', bare.id).executeTakeFirstOrThrow())
        .password_hash,
    ).toBeNull();
    await setAccountPassword(t.deps.db, t.deps.clock, 'NOPASS@example.com', 'now it has one');
    const after = await t.deps.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', bare.id)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(after.password_hash, 'now it has one')).toBe(true);
    await expect(setAccountPassword(t.deps.db, t.deps.clock, 'ghost@example.com', 'whatever123')).rejects.toMatchObject(
      { http: 404 },
    );
  });

  it('adds a member by id or email, updates on a second add, and refuses unknown users and brands', async () => {
    const brand = await createBrand(t.deps.db, { name: 'Member Test' });
    const user = await createAccount(t.deps.db, { email: 'member@example.com', password: null });
    const first = await addMember(t.deps.db, t.deps.clock, {
      user: 'MEMBER@example.com',
      brand: brand.id,
      acl: ['CRM'],
    });
    expect(first).toMatchObject({
      created: true,
      membership: { user: user.id, brand: brand.id, role: 'Member', acl: ['CRM'] },
    });
    const second = await addMember(t.deps.db, t.deps.clock, {
      user: user.id,
      brand: brand.id,
      acl: ['CRM', 'Deals'],
      role: 'Team lead',
    });
    expect(second).toMatchObject({
      created: false,
      membership: { id: first.membership.id, role: 'Team lead', acl: ['CRM', 'Deals'] },
    });
    await expect(
      addMember(t.deps.db, t.deps.clock, { user: 'ghost@example.com', brand: brand.id, acl: [] }),
    ).rejects.toMatchObject({ http: 404, message: expect.stringContaining('ghost@example.com') });
    await expect(
      addMember(t.deps.db, t.deps.clock, { user: user.id, brand: '2a7d1c5e-0000-4000-8000-000000000000', acl: [] }),
    ).rejects.toMatchObject({ http: 404 });
  });

  it('removes a membership and clears an active brand the user can no longer reach', async () => {
    const brokerage = await createBrand(t.deps.db, { name: 'Removal Test' });
    const office = await createBrand(t.deps.db, { name: 'Removal Office', parent: brokerage.id });
    const other = await createBrand(t.deps.db, { name: 'Other' });
    const user = await createAccount(t.deps.db, { email: 'leaver@example.com', password: null });
    await addMember(t.deps.db, t.deps.clock, { user: user.id, brand: brokerage.id, acl: ['CRM'] });
    await addMember(t.deps.db, t.deps.clock, { user: user.id, brand: other.id, acl: ['CRM'] });
    const token = await tokenFor(t.deps, user.id);
    const set = await t.app.inject({
      method: 'PATCH',
      url: '/users/self/active-brand',
      headers: { ...bearer(token), 'x-rechat-brand': office.id },
    });
    expect(set.json().data.active_brand).toBe(office.id);

    await removeMember(t.deps.db, t.deps.clock, { user: user.id, brand: brokerage.id });
    const self = await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(token) });
    expect(self.json().data).toMatchObject({ active_brand: other.id, brand: other.id });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/users/self',
          headers: { ...bearer(token), 'x-rechat-brand': office.id },
        })
      ).statusCode,
    ).toBe(403);
    await expect(removeMember(t.deps.db, t.deps.clock, { user: user.id, brand: brokerage.id })).rejects.toMatchObject({
      http: 404,
    });
  });
});
