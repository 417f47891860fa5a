// The brand profile, sub-brands, marketing palette and roster that existing clients read (decisions §19), sent
// as the WordPress plugin sends them.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runAdminCommand } from '../../../test/helpers/cli.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { linkAgent } from '../../../test/helpers/search-fixtures.js';
import { registerPaletteCommand } from './palette.cli.js';

const t = useTestApp();

interface World {
  brokerage: string;
  region: string;
  officeA: string;
  officeB: string;
  admin: Record<string, string>;
  officeAdminA: Record<string, string>;
  agentA: Record<string, string>;
  ids: Record<string, string>;
}
let w: World;

beforeAll(async () => {
  const brokerage = await createBrand(t.deps, { name: 'Acme Realty', brand_type: 'Brokerage' });
  const region = await createBrand(t.deps, { name: 'Acme North Texas', parent: brokerage.id, brand_type: 'Region' });
  const officeA = await createBrand(t.deps, { name: 'Acme Uptown', parent: region.id, brand_type: 'Office' });
  const officeB = await createBrand(t.deps, { name: 'Acme Downtown', parent: region.id, brand_type: 'Office' });
  await t.deps.db
    .updateTable('brands')
    .set({
      marketing_palette: JSON.stringify({
        'button-bg-color': '#112233',
        'container-logo-wide': 'https://cdn.example.com/acme-wide.png',
      }),
    })
    .where('id', '=', brokerage.id)
    .execute();
  await t.deps.db
    .updateTable('brands')
    .set({ marketing_palette: JSON.stringify({ 'body-bg-color': '#ffffff' }) })
    .where('id', '=', region.id)
    .execute();
  await t.deps.db
    .updateTable('brands')
    .set({ marketing_palette: JSON.stringify({ 'button-bg-color': '#aa0000' }) })
    .where('id', '=', officeA.id)
    .execute();
  const user = async (first: string, brand: string, acl: string[]) => {
    const u = await createUser(t.deps, {
      first_name: first,
      last_name: 'Agent',
      email: `${first.toLowerCase()}-${brand.slice(0, 8)}@acme.example`,
    });
    await addMembership(t.deps, u.id, brand, acl);
    return u;
  };
  const admin = await user('Avery', brokerage.id, ['Admin', 'CRM']);
  const officeAdminA = await user('Olivia', officeA.id, ['Admin']);
  const agentA = await user('Ada', officeA.id, ['CRM']);
  const agentB = await user('Ben', officeB.id, ['CRM']);
  await linkAgent(t.deps, agentA.id, 'MUI-ADA');
  w = {
    brokerage: brokerage.id,
    region: region.id,
    officeA: officeA.id,
    officeB: officeB.id,
    admin: bearer(await tokenFor(t.deps, admin.id)),
    officeAdminA: bearer(await tokenFor(t.deps, officeAdminA.id)),
    agentA: bearer(await tokenFor(t.deps, agentA.id)),
    ids: { admin: admin.id, officeAdminA: officeAdminA.id, agentA: agentA.id, agentB: agentB.id },
  };
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /brands/:brand (public profile)', () => {
  it('answers without a token: name, type and parent id, nothing else', async () => {
    const res = await get(`/brands/${w.officeA}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: w.officeA,
      type: 'brand',
      name: 'Acme Uptown',
      brand_type: 'Office',
      parent: w.region,
    });
  });

  it('with brand.parent and brand.settings: the parent chain as records, each with its palette inherited key by key', async () => {
    const res = await get(`/brands/${w.officeA}?associations[]=brand.parent&associations[]=brand.settings`);
    const office = res.json().data;
    expect(office.settings.marketing_palette).toEqual({
      'button-bg-color': '#aa0000',
      'container-logo-wide': 'https://cdn.example.com/acme-wide.png',
      'body-bg-color': '#ffffff',
    });
    expect(office.parent).toMatchObject({
      id: w.region,
      brand_type: 'Region',
      settings: { marketing_palette: { 'button-bg-color': '#112233', 'body-bg-color': '#ffffff' } },
    });
    expect(office.parent.parent).toMatchObject({ id: w.brokerage, brand_type: 'Brokerage', parent: null });
    expect(res.body).not.toContain('@'); // no member emails, ever
  });

  it('with brand.parents: the ancestor ids, nearest first', async () => {
    const res = await get(`/brands/${w.officeA}?associations=brand.parents`);
    expect(res.json().data.parents).toEqual([w.region, w.brokerage]);
  });

  it('answers 404 for an unknown or deleted brand and 400 for a malformed id, revealing nothing', async () => {
    const gone = await createBrand(t.deps, { name: 'Gone Realty' });
    await t.deps.db.updateTable('brands').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    for (const id of [gone.id, '7d3b7a52-54f2-4a6a-9a0e-2a1c9f0d1a11'])
      expect((await get(`/brands/${id}`)).json()).toMatchObject({ http: 404, code: 'ResourceNotFound' });
    expect((await get('/brands/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('PUT /brands/:brand/settings/marketing_palette', () => {
  const put = (brand: string, headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/brands/${brand}/settings/marketing_palette`, headers, payload });

  it("replaces the brand's own keys (Admin), the rest still inherited", async () => {
    const res = await put(w.officeA, w.officeAdminA, {
      'button-bg-color': '#00aa00',
      phone_number: '+12145550100',
      address: { full: '1 Main St, Dallas, TX 75201', city: 'Dallas' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.settings.marketing_palette).toMatchObject({
      'button-bg-color': '#00aa00',
      'container-logo-wide': 'https://cdn.example.com/acme-wide.png',
      address: { city: 'Dallas' },
    });
  });

  it('refuses a bad colour or a non-http(s) logo naming the key, non-admins and other offices, changing nothing', async () => {
    const before = (await get(`/brands/${w.officeA}?associations[]=brand.settings`)).json().data.settings;
    const badColor = await put(w.officeA, w.officeAdminA, { 'button-bg-color': 'red' });
    expect(badColor.json()).toMatchObject({
      http: 400,
      code: 'Validation',
      attributes: { 'button-bg-color': [expect.stringContaining('hex')] },
    });
    const badLogo = await put(w.officeA, w.officeAdminA, { 'container-logo-square': 'javascript:alert(1)' });
    expect(badLogo.json()).toMatchObject({
      http: 400,
      attributes: { 'container-logo-square': [expect.stringContaining('http')] },
    });
    expect((await put(w.officeA, w.officeAdminA, { 'Bad Key': 'x' })).statusCode).toBe(400);
    expect((await put(w.officeA, w.agentA, { 'button-bg-color': '#000000' })).statusCode).toBe(403);
    expect((await put(w.officeB, w.officeAdminA, { 'button-bg-color': '#000000' })).statusCode).toBe(403);
    expect((await put(w.officeA, {}, { 'button-bg-color': '#000000' })).statusCode).toBe(401);
    expect((await get(`/brands/${w.officeA}?associations[]=brand.settings`)).json().data.settings).toEqual(before);
  });
});

describe('GET /brands/:brand/children', () => {
  it('lists the live sub-brands to members of the brand or above; others get 403', async () => {
    const res = await get(`/brands/${w.region}/children`, w.admin);
    expect(res.json().data.map((b: { name: string }) => b.name)).toEqual(['Acme Downtown', 'Acme Uptown']);
    expect(res.json().info).toEqual({ count: 2, total: 2 });
    expect((await get(`/brands/${w.region}/children`, w.agentA)).statusCode).toBe(403);
  });
});

describe('GET /brands/:brand/users (roster)', () => {
  const roster = (brand: string, headers: Record<string, string>, query = '') =>
    get(`/brands/${brand}/users?associations[]=brand.parents&associations[]=brand.settings${query}`, headers);

  it('lists each member of the brand and its sub-brands once, as the plugin reads them: user, brands with type and parent chain', async () => {
    const res = await roster(w.brokerage, w.admin, '&limit=100&start=0');
    expect(res.statusCode, res.body).toBe(200);
    const { data, info } = res.json();
    expect(info).toEqual({ count: 4, total: 4 });
    expect(data.map((m: { first_name: string }) => m.first_name)).toEqual(['Ada', 'Avery', 'Ben', 'Olivia']);
    const ada = data[0];
    expect(ada.user).toMatchObject({
      id: w.ids.agentA,
      email: expect.stringContaining('ada-'),
      agents: [expect.objectContaining({ mls_unique_id: 'MUI-ADA' })],
    });
    expect(ada.brands).toHaveLength(1);
    expect(ada.brands[0]).toMatchObject({
      id: w.officeA,
      brand_type: 'Office',
      parent: { id: w.region, brand_type: 'Region', parent: { id: w.brokerage } },
      parents: [w.region, w.brokerage],
    });
    expect(ada.brands[0].settings.marketing_palette['container-logo-wide']).toBe(
      'https://cdn.example.com/acme-wide.png',
    );
    for (const member of data) {
      expect(member).not.toHaveProperty('has_password');
      expect(member).not.toHaveProperty('mfa_enabled');
      expect(JSON.stringify(member)).not.toMatch(/password|token/i);
    }
  });

  it('pages with an exact total', async () => {
    const first = (await roster(w.brokerage, w.admin, '&limit=3')).json();
    const second = (await roster(w.brokerage, w.admin, '&limit=3&start=3')).json();
    expect(first.info).toEqual({ count: 3, total: 4 });
    expect(second.info).toEqual({ count: 1, total: 4 });
    expect(new Set([...first.data, ...second.data].map((m: { id: string }) => m.id)).size).toBe(4);
  });

  it('an office admin sees their office, not the sibling office or the brokerage', async () => {
    const own = (await roster(w.officeA, w.officeAdminA)).json().data;
    expect(own.map((m: { id: string }) => m.id).sort()).toEqual([w.ids.agentA, w.ids.officeAdminA].sort());
    expect((await roster(w.officeB, w.officeAdminA)).statusCode).toBe(403);
    expect((await roster(w.brokerage, w.officeAdminA)).statusCode).toBe(403);
    expect((await roster(w.officeA, {})).statusCode).toBe(401);
  });
});

describe('gable admin brand palette', () => {
  const run = (...args: string[]) => runAdminCommand(registerPaletteCommand, t.deps, ...args);

  it('sets and unsets keys and address fields, and refuses a bad colour with exit 1', async () => {
    const set = await run(
      'brand',
      'palette',
      w.officeB,
      '--set',
      'button-bg-color=#123456',
      '--set',
      'address.city=Plano',
    );
    expect(JSON.parse(set.out)).toMatchObject({
      'button-bg-color': '#123456',
      address: { city: 'Plano' },
      'body-bg-color': '#ffffff',
    });
    const unset = await run('brand', 'palette', w.officeB, '--unset', 'button-bg-color');
    expect(JSON.parse(unset.out)['button-bg-color']).toBe('#112233'); // the brokerage's again
    const bad = await run('brand', 'palette', w.officeB, '--set', 'button-bg-color=blue');
    expect(bad.exitCode).toBe(1);
    expect(bad.err).toContain('hex');
  });
});
