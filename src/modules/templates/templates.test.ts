// Templates over HTTP: the shipped library, brand templates, filters, the Marketing ACL, sanitising on create.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { MEDIUMS, PRINT_SIZES } from '../../render/mediums.js';
import { TEMPLATE_LIBRARY, seedTemplateLibrary, templateLibraryStep } from './templates.library.js';
import { marketer } from '../../../test/helpers/templates.js';

const t = useTestApp();
let parent: string;
let office: string;
let sibling: string;
let agent: Awaited<ReturnType<typeof marketer>>;
let other: Awaited<ReturnType<typeof marketer>>;

beforeAll(async () => {
  await seedTemplateLibrary(t.deps);
  parent = (await createBrand(t.deps, { brand_type: 'Brokerage' })).id;
  office = (await createBrand(t.deps, { parent, brand_type: 'Office' })).id;
  sibling = (await createBrand(t.deps, { parent, brand_type: 'Office' })).id;
  agent = await marketer(t.deps, { brand: office });
  other = await marketer(t.deps, { brand: sibling });
});

const SIMPLE =
  '<!DOCTYPE html><html><head><style>h1 { color: red }</style></head><body><h1>{{ listing.price | money }}</h1><p>{{ user.first_name }}</p></body></html>';

describe('the shipped library', () => {
  it('has a template for every print medium and the two social ones, all global and parseable', async () => {
    const res = await t.app.inject({ url: '/templates?limit=100', headers: agent.headers });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const mediums = new Set(
      body.data.filter((tpl: { global: boolean }) => tpl.global).map((tpl: { medium: string }) => tpl.medium),
    );
    for (const medium of [...Object.keys(PRINT_SIZES), 'InstagramStory', 'FacebookCover'])
      expect(mediums.has(medium), medium).toBe(true);
    expect(body.info.total).toBe(TEMPLATE_LIBRARY.length);
    const postcard = body.data.find((tpl: { medium: string }) => tpl.medium === 'PostCard');
    expect(postcard).toMatchObject({ type: 'template', brand: null, global: true, template_type: 'JustListed' });
    expect(postcard.inputs).toEqual(['listing', 'user']);
    expect(postcard.variables).toContain('listing.price');
    expect(postcard.html).toContain('fonts.googleapis.com');
  });

  it('seeding again changes nothing; the first-start step is needed only while templates are missing', async () => {
    await seedTemplateLibrary(t.deps);
    const res = await t.app.inject({ url: '/templates?limit=100', headers: agent.headers });
    expect(res.json().info.total).toBe(TEMPLATE_LIBRARY.length);
    expect(await templateLibraryStep.isNeeded(t.deps)).toBe(false);
  });
});

describe('brand templates', () => {
  it('creates a brand template (sanitised) that the brand and its sub-brands see, and a sibling does not', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/brands/${parent}/templates`,
      headers: (await marketer(t.deps, { brand: parent })).bare,
      payload: {
        name: 'Parent flyer',
        medium: 'Flyer',
        template_type: 'OpenHouse',
        html: `${SIMPLE}<script>alert(1)</script><img src="http://10.0.0.1/x" onerror="x()">`,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const tpl = created.json().data;
    expect(tpl).toMatchObject({
      type: 'template',
      brand: parent,
      global: false,
      medium: 'Flyer',
      template_type: 'OpenHouse',
      inputs: ['listing', 'user'],
      variables: ['listing.price', 'user.first_name'],
    });
    expect(tpl.html).not.toMatch(/script|10\.0\.0\.1|onerror/);
    expect(tpl.html).toContain('{{ listing.price | money }}');

    const seenByOffice = await t.app.inject({
      url: `/brands/${office}/templates?mediums[]=Flyer`,
      headers: agent.bare,
    });
    expect(seenByOffice.json().data.map((x: { id: string }) => x.id)).toContain(tpl.id);
    const own = await t.app.inject({
      method: 'POST',
      url: `/brands/${office}/templates`,
      headers: agent.bare,
      payload: { name: 'Office flyer', medium: 'Flyer', template_type: 'JustListed', html: SIMPLE },
    });
    expect(own.statusCode).toBe(200);
    const seenBySibling = await t.app.inject({
      url: `/brands/${sibling}/templates?mediums[]=Flyer`,
      headers: other.bare,
    });
    const siblingIds = seenBySibling.json().data.map((x: { id: string }) => x.id);
    expect(siblingIds).toContain(tpl.id);
    expect(siblingIds).not.toContain(own.json().data.id);
  });

  it('filters by mediums[] and template_types[]', async () => {
    const res = await t.app.inject({
      url: '/templates?mediums[]=PostCard&mediums[]=BusinessCard&template_types[]=Branding',
      headers: agent.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((x: { medium: string }) => x.medium)).toEqual(['BusinessCard']);
  });

  it('an unknown medium is a 400 naming the allowed ones; a bad template is a 400; nothing is written', async () => {
    const list = await t.app.inject({ url: '/templates?mediums[]=Billboard', headers: agent.headers });
    expect(list.statusCode).toBe(400);
    expect(list.json().message).toContain(MEDIUMS.join(', '));
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: `/brands/${office}/templates`, headers: agent.bare, payload });
    const before = (await t.app.inject({ url: `/brands/${office}/templates?limit=100`, headers: agent.bare })).json()
      .info.total;
    expect((await post({ name: 'x', medium: 'Billboard', template_type: 'JustListed', html: SIMPLE })).statusCode).toBe(
      400,
    );
    const broken = await post({
      name: 'x',
      medium: 'Flyer',
      template_type: 'JustListed',
      html: '<p>{% if listing.price %}</p>',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().attributes.html).toBeDefined();
    expect(
      (await post({ name: 'x', medium: 'Flyer', template_type: 'JustListed', html: "{% include 'x' %}" })).statusCode,
    ).toBe(400);
    expect((await post({ name: 'x', medium: 'Flyer', template_type: 'Just Listed!', html: SIMPLE })).statusCode).toBe(
      400,
    );
    expect(
      (await post({ name: 'x', medium: 'Flyer', template_type: 'JustListed', html: 'x'.repeat(2 * 1024 * 1024 + 1) }))
        .statusCode,
    ).toBe(400);
    expect(
      (await t.app.inject({ url: `/brands/${office}/templates?limit=100`, headers: agent.bare })).json().info.total,
    ).toBe(before);
  });

  it('needs the Marketing ACL on the brand (403), and a token (401)', async () => {
    const crm = await marketer(t.deps, { brand: office, acl: ['CRM'] });
    expect((await t.app.inject({ url: '/templates', headers: crm.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/brands/${office}/templates`, headers: crm.bare })).statusCode).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/brands/${office}/templates`,
          headers: crm.bare,
          payload: { name: 'x', medium: 'Flyer', template_type: 'JustListed', html: SIMPLE },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/brands/${office}/templates`,
          headers: other.bare,
          payload: { name: 'x', medium: 'Flyer', template_type: 'JustListed', html: SIMPLE },
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ url: '/templates' })).statusCode).toBe(401);
  });
});
