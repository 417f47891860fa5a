// Print campaigns over HTTP (spec 4.9): create, update, get, list (user, mediums, order, paging, associations),
// stats (no envelope, counts as strings, only mediums present), and access across brands and ACLs.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { seedTemplateLibrary } from '../templates/templates.library.js';
import { marketer } from '../../../test/helpers/templates.js';

const t = useTestApp({ now: new Date('2026-11-24T10:00:00Z') });
let brand: string;
let agent: Awaited<ReturnType<typeof marketer>>;
let colleague: Awaited<ReturnType<typeof marketer>>;
let outsider: Awaited<ReturnType<typeof marketer>>;
const templates: Record<string, string> = {};

const instance = async (medium: string, who = agent) => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/templates/${templates[medium]}/instances`,
    headers: who.headers,
    payload: {},
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
};
const post = (b: string, templateInstance: string, who = agent, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `/brands/${b}/print-campaigns${query}`,
    headers: who.bare,
    payload: { templateInstance },
  });
const list = async (query: string, who = agent) => {
  const res = await t.app.inject({ url: `/brands/${brand}/print-campaigns${query}`, headers: who.bare });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  await seedTemplateLibrary(t.deps);
  brand = (await createBrand(t.deps)).id;
  agent = await marketer(t.deps, { brand });
  colleague = await marketer(t.deps, { brand });
  outsider = await marketer(t.deps);
  for (const tpl of (await t.app.inject({ url: '/templates?limit=100', headers: agent.headers })).json().data)
    templates[tpl.medium] = tpl.id;
});

describe('print campaigns', () => {
  const ids: string[] = [];

  beforeAll(async () => {
    for (const [medium, who] of [
      ['PostCard', agent],
      ['PostCard', agent],
      ['Flyer', agent],
      ['BusinessCard', colleague],
    ] as const) {
      const res = await post(brand, await instance(medium, who), who);
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().data.id);
      t.clock.advance(60);
    }
  });

  it('POST answers the campaign; with the association, its instance and file', async () => {
    const res = await post(
      brand,
      await instance('IndexCard'),
      agent,
      '?associations[]=print_campaign.template_instance&associations[]=template_instance.template',
    );
    expect(res.statusCode).toBe(200);
    const campaign = res.json().data;
    expect(campaign).toMatchObject({ type: 'print_campaign', brand, created_by: agent.user, deleted_at: null });
    expect(campaign.template_instance).toMatchObject({ type: 'template_instance', medium: 'IndexCard' });
    expect(campaign.template_instance.file).toMatchObject({ type: 'file', mime: 'text/html' });
    expect(campaign.template_instance.template).toMatchObject({ type: 'template', medium: 'IndexCard' });
    ids.push(campaign.id);
  });

  it('GET by id; without associations template_instance is the id', async () => {
    const res = await t.app.inject({ url: `/brands/${brand}/print-campaigns/${ids[0]}`, headers: agent.bare });
    expect(res.statusCode).toBe(200);
    expect(typeof res.json().data.template_instance).toBe('string');
  });

  it('lists newest first by default, and orders by +/- created_at and updated_at', async () => {
    expect((await list('')).data.map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
    expect((await list('?order=%2Bcreated_at')).data.map((c: { id: string }) => c.id)).toEqual(ids);
    expect((await list('?order=+created_at')).data.map((c: { id: string }) => c.id)).toEqual(ids);
    expect(
      (await t.app.inject({ url: `/brands/${brand}/print-campaigns?order=-name`, headers: agent.bare })).statusCode,
    ).toBe(400);
  });

  it('filters by user and mediums[], pages with an exact total', async () => {
    expect((await list(`?user=${colleague.user}`)).data.map((c: { id: string }) => c.id)).toEqual([ids[3]]);
    const postcards = await list('?mediums[]=PostCard&associations[]=print_campaign.template_instance');
    expect(postcards.info.total).toBe(2);
    expect(
      postcards.data.every((c: { template_instance: { medium: string } }) => c.template_instance.medium === 'PostCard'),
    ).toBe(true);
    expect((await list('?mediums[]=PostCard&mediums[]=Flyer')).info.total).toBe(3);
    const page = await list('?start=1&limit=2&order=%2Bcreated_at');
    expect(page.info).toEqual({ count: 2, total: 5 });
    expect(page.data.map((c: { id: string }) => c.id)).toEqual(ids.slice(1, 3));
    const bad = await t.app.inject({
      url: `/brands/${brand}/print-campaigns?mediums[]=Billboard`,
      headers: agent.bare,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('PostCard');
  });

  it('stats: no envelope, counts as strings, only mediums present, by user', async () => {
    const res = await t.app.inject({ url: `/brands/${brand}/print-campaigns/stats`, headers: agent.bare });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      type: 'print_campaign_stats',
      PostCard: '2',
      Flyer: '1',
      BusinessCard: '1',
      IndexCard: '1',
    });
    const mine = await t.app.inject({
      url: `/brands/${brand}/print-campaigns/stats?user=${colleague.user}`,
      headers: agent.bare,
    });
    expect(mine.json()).toEqual({ type: 'print_campaign_stats', BusinessCard: '1' });
    const empty = await t.app.inject({
      url: `/brands/${outsider.brand}/print-campaigns/stats`,
      headers: outsider.bare,
    });
    expect(empty.json()).toEqual({ type: 'print_campaign_stats' });
  });

  it('PUT points the campaign at another instance, answers 200 and moves updated_at', async () => {
    t.clock.advance(600);
    const flyer = await instance('Flyer');
    const res = await t.app.inject({
      method: 'PUT',
      url: `/brands/${brand}/print-campaigns/${ids[0]}`,
      headers: agent.bare,
      payload: { templateInstance: flyer },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.template_instance).toBe(flyer);
    expect(res.json().data.updated_at).toBeGreaterThan(res.json().data.created_at);
    expect((await list('?order=-updated_at')).data[0].id).toBe(ids[0]);
    const stats = (await t.app.inject({ url: `/brands/${brand}/print-campaigns/stats`, headers: agent.bare })).json();
    expect(stats).toMatchObject({ PostCard: '1', Flyer: '2' });
  });
});

describe('access', () => {
  let campaign: string;
  let foreignInstance: string;
  beforeAll(async () => {
    campaign = (await post(brand, await instance('PostCard'))).json().data.id;
    foreignInstance = await instance('PostCard', outsider);
  });

  it('another brand’s template instance cannot be used (404), nothing is written', async () => {
    const before = await t.deps.db
      .selectFrom('print_campaigns')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect((await post(brand, foreignInstance)).statusCode).toBe(404);
    expect((await post(brand, '00000000-0000-4000-8000-000000000001')).statusCode).toBe(404);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/brands/${brand}/print-campaigns/${campaign}`,
      headers: agent.bare,
      payload: { templateInstance: foreignInstance },
    });
    expect(put.statusCode).toBe(404);
    const after = await t.deps.db
      .selectFrom('print_campaigns')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('a campaign is 404 under another brand’s path; another brand’s path is 403; no Marketing is 403', async () => {
    expect(
      (await t.app.inject({ url: `/brands/${outsider.brand}/print-campaigns/${campaign}`, headers: outsider.bare }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/brands/${outsider.brand}/print-campaigns/${campaign}`,
          headers: outsider.bare,
          payload: { templateInstance: foreignInstance },
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: `/brands/${brand}/print-campaigns`, headers: outsider.bare })).statusCode).toBe(
      403,
    );
    expect(
      (await t.app.inject({ url: `/brands/${brand}/print-campaigns/stats`, headers: outsider.bare })).statusCode,
    ).toBe(403);
    expect((await post(brand, foreignInstance, outsider)).statusCode).toBe(403);
    const crm = await marketer(t.deps, { brand, acl: ['CRM'] });
    expect((await t.app.inject({ url: `/brands/${brand}/print-campaigns`, headers: crm.bare })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ url: `/brands/${brand}/print-campaigns/${campaign}`, headers: crm.bare })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ url: `/brands/${brand}/print-campaigns` })).statusCode).toBe(401);
  });

  it('bad input: a malformed body or ids is 400', async () => {
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/brands/${brand}/print-campaigns`,
          headers: agent.bare,
          payload: {},
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/brands/${brand}/print-campaigns`,
          headers: agent.bare,
          payload: { templateInstance: 'x' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await t.app.inject({ url: `/brands/${brand}/print-campaigns?user=nope`, headers: agent.bare })).statusCode,
    ).toBe(400);
    expect(
      (await t.app.inject({ url: `/brands/${brand}/print-campaigns?limit=1001`, headers: agent.bare })).statusCode,
    ).toBe(400);
  });
});
