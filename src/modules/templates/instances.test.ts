// Template instances over HTTP: rendering with listings, contacts and the user, unknown variables, the stored
// HTML file behind a signed URL, edited HTML, listing/paging/filters, access, and deletion by the creator only.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { seedTemplateLibrary } from './templates.library.js';
import { marketer } from '../../../test/helpers/templates.js';

// No browser here (CHROMIUM_PATH=none): instances keep their HTML file; rendering is proven in test/browser/render.test.ts.
const t = useTestApp({ now: new Date('2026-11-24T10:00:00Z'), env: { CHROMIUM_PATH: 'none' } });
let brand: string;
let agent: Awaited<ReturnType<typeof marketer>>;
let colleague: Awaited<ReturnType<typeof marketer>>;
let outsider: Awaited<ReturnType<typeof marketer>>;
let listing: string;
let contact: string;
let foreignContact: string;
let deal: string;
let foreignDeal: string;
let postcard: string;
let letter: string;
let businessCard: string;

beforeAll(async () => {
  await seedTemplateLibrary(t.deps);
  brand = (await createBrand(t.deps, { name: 'Maple Realty' })).id;
  agent = await marketer(t.deps, { brand, acl: ['Marketing', 'CRM', 'Deals'] });
  colleague = await marketer(t.deps, { brand });
  outsider = await marketer(t.deps, { acl: ['Marketing', 'CRM'] });
  await t.app.inject({
    method: 'POST',
    url: '/mls/NTREIS/listings',
    headers: await clientHeaders(t.deps),
    payload: [sampleListing('P-1', { cover_image_url: 'https://img.example.com/cover.jpg' })],
  });
  listing = (
    await t.deps.db.selectFrom('listings').select('id').where('mls_number', '=', 'P-1').executeTakeFirstOrThrow()
  ).id;
  contact = (
    await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: agent.headers,
      payload: {
        first_name: 'Olivia',
        last_name: 'Nguyen',
        address: [{ line1: '12 Elm St', city: 'Dallas', state: 'TX', postcode: '75204' }],
      },
    })
  ).json().data.id;
  foreignContact = (
    await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: outsider.headers,
      payload: { first_name: 'Elsewhere' },
    })
  ).json().data.id;
  const roles = [
    { role: 'Buyer', legal_first_name: 'Olivia', legal_last_name: 'Nguyen', email: 'olivia@example.com' },
    { role: 'BuyerAgent', legal_first_name: 'Sam', legal_last_name: 'Lee', email: 'sam@example.com' },
  ];
  const newDeal = await t.app.inject({
    method: 'POST',
    url: '/deals',
    headers: agent.headers,
    payload: {
      deal_type: 'Buying',
      property_type: 'Resale',
      listing,
      status: 'Closed',
      context: { closing_date: '2026-11-20' },
      roles,
    },
  });
  expect(newDeal.statusCode, newDeal.body).toBe(200);
  deal = newDeal.json().data.id;
  const outsiderDealer = await marketer(t.deps, { brand: outsider.brand, acl: ['Deals'] });
  foreignDeal = (
    await t.app.inject({
      method: 'POST',
      url: '/deals',
      headers: outsiderDealer.headers,
      payload: { deal_type: 'Selling', property_type: 'Resale' },
    })
  ).json().data.id;
  const templates = (await t.app.inject({ url: '/templates?limit=100', headers: agent.headers })).json().data as {
    id: string;
    medium: string;
  }[];
  postcard = templates.find((x) => x.medium === 'PostCard')!.id;
  letter = templates.find((x) => x.medium === 'Letter')!.id;
  businessCard = templates.find((x) => x.medium === 'BusinessCard')!.id;
});

const create = (template: string, payload: object, headers = agent.headers) =>
  t.app.inject({ method: 'POST', url: `/templates/${template}/instances`, headers, payload });

describe('POST /templates/:id/instances', () => {
  it('renders a postcard for a listing with the user, stores the HTML as a file with a signed URL', async () => {
    const res = await create(postcard, { listings: [listing] });
    expect(res.statusCode, res.body).toBe(200);
    const instance = res.json().data;
    expect(instance).toMatchObject({
      type: 'template_instance',
      template: postcard,
      brand,
      medium: 'PostCard',
      created_by: agent.user,
      listings: [listing],
      contacts: [],
      render_status: 'html_only',
      deleted_at: null,
    });
    expect(instance.branch).toBe(`http://gable.test/marketing/instances/${instance.id}`);
    expect(instance.html).toContain('4521 Maple Ave');
    expect(instance.html).toContain('$450,000');
    expect(instance.html).toContain('Dana Reyes');
    expect(instance.html).toContain('https://img.example.com/cover.jpg');
    expect(instance.html).not.toContain('{{');
    expect(instance.unknown_variables).toEqual(expect.arrayContaining(['user.phone_number']));
    expect(instance.file).toMatchObject({
      type: 'file',
      mime: 'text/html',
      public: false,
      preview_url: null,
      created_by: agent.user,
    });
    expect(instance.render_note).toContain('No renderer is available');
    const url = new URL(instance.file.url);
    const download = await t.app.inject({ url: url.pathname + url.search });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(instance.html);
  });

  it('renders a letter for a contact of the brand', async () => {
    const res = await create(letter, { contacts: [contact] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.html).toContain('Happy birthday, Olivia!');
    expect(res.json().data.html).toContain('12 Elm St');
  });

  it('renders with a deal the caller reaches: its title, context and roles, and names it in the instance', async () => {
    const template = await t.app.inject({
      method: 'POST',
      url: `/brands/${brand}/templates`,
      headers: agent.bare,
      payload: {
        name: 'Closing card',
        medium: 'PostCard',
        template_type: 'Branding',
        html: '<p>Congratulations on {{ deal.title }}, closed {{ deal.context.closing_date }}, for {{ deal.listing.price }}. {% for role in deal.roles %}{{ role.legal_first_name }} {% endfor %}</p>',
      },
    });
    expect(template.statusCode, template.body).toBe(200);
    const res = await create(template.json().data.id, { deals: [deal] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ deals: [deal], listings: [], contacts: [] });
    expect(res.json().data.html).toBe(
      '<p>Congratulations on 4521 Maple Ave, Dallas, TX 75219, closed 2026-11-20, for 450000. Olivia Sam </p>',
    );
    expect(res.json().data.unknown_variables).toEqual([]);
  });

  it('a template variable the records lack renders empty and is reported, not a 5xx', async () => {
    const res = await create(postcard, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().data.unknown_variables).toEqual(
      expect.arrayContaining(['listing.price', 'listing.cover_image_url']),
    );
  });

  it('takes the client’s edited HTML, cleaned', async () => {
    const res = await create(businessCard, {
      html: '<p>Edited <b>card</b></p><script>alert(1)</script><img src="http://192.168.0.10/x.png">',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.html).toBe('<p>Edited <b>card</b></p><img />');
    expect(res.json().data.unknown_variables).toEqual([]);
  });

  it('refuses unknown listings, foreign contacts, deals and oversized HTML; writes nothing', async () => {
    const count = async () =>
      Number(
        (
          await t.deps.db
            .selectFrom('template_instances')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect((await create(postcard, { listings: ['00000000-0000-4000-8000-000000000001'] })).statusCode).toBe(404);
    expect((await create(letter, { contacts: [foreignContact] })).statusCode).toBe(404);
    expect((await create(letter, { contacts: [contact] }, colleague.headers)).statusCode).toBe(404); // no CRM: cannot read the contact
    expect((await create(postcard, { deals: ['00000000-0000-4000-8000-000000000001'] })).statusCode).toBe(404);
    expect((await create(postcard, { deals: [foreignDeal] })).statusCode).toBe(404);
    expect((await create(postcard, { deals: [deal] }, colleague.headers)).statusCode).toBe(404); // no Deals: cannot read the deal
    expect((await create(postcard, { deals: [] })).statusCode).toBe(200);
    expect((await create(postcard, { html: 'x'.repeat(2 * 1024 * 1024 + 1) })).statusCode).toBe(400);
    expect((await create('00000000-0000-4000-8000-000000000001', {})).statusCode).toBe(404);
    expect(await count()).toBe(before + 1);
  });

  it('a brand template of another brand is 404; no Marketing is 403', async () => {
    const other = await t.app.inject({
      method: 'POST',
      url: `/brands/${outsider.brand}/templates`,
      headers: outsider.bare,
      payload: { name: 'Theirs', medium: 'Flyer', template_type: 'JustListed', html: '<p>{{ user.first_name }}</p>' },
    });
    expect((await create(other.json().data.id, {})).statusCode).toBe(404);
    const crmOnly = await marketer(t.deps, { brand, acl: ['CRM'] });
    expect((await create(postcard, {}, crmOnly.headers)).statusCode).toBe(403);
  });
});

describe('reading and deleting instances', () => {
  let mine: string;
  beforeAll(async () => {
    mine = (await create(businessCard, {})).json().data.id;
    t.clock.advance(10);
  });

  it('lists the caller’s instances newest first, filtered by mediums[], with paging and the template association', async () => {
    const newest = (await create(letter, { contacts: [contact] })).json().data.id;
    const all = (await t.app.inject({ url: '/templates/instances', headers: agent.headers })).json();
    expect(all.data[0].id).toBe(newest);
    expect(all.info.total).toBeGreaterThanOrEqual(6);
    const cards = (
      await t.app.inject({
        url: '/templates/instances?mediums[]=BusinessCard&associations[]=template_instance.template',
        headers: agent.headers,
      })
    ).json();
    expect(cards.data.every((x: { medium: string }) => x.medium === 'BusinessCard')).toBe(true);
    expect(cards.data[0].template).toMatchObject({ type: 'template', id: businessCard });
    const page = (await t.app.inject({ url: '/templates/instances?start=1&limit=1', headers: agent.headers })).json();
    expect(page.info).toMatchObject({ count: 1, total: all.info.total });
    expect(page.data[0].id).toBe(all.data[1].id);
    expect(
      (await t.app.inject({ url: '/templates/instances?mediums[]=Poster', headers: agent.headers })).statusCode,
    ).toBe(400);
    expect((await t.app.inject({ url: '/templates/instances', headers: colleague.headers })).json().info.total).toBe(0);
  });

  it('GET by id: the brand’s Marketing users see it; others get 404', async () => {
    expect((await t.app.inject({ url: `/templates/instances/${mine}`, headers: colleague.bare })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/templates/instances/${mine}`, headers: outsider.bare })).statusCode).toBe(404);
  });

  it('only the creator deletes (soft); then it is 404', async () => {
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/templates/instances/${mine}`, headers: colleague.bare }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/templates/instances/${mine}`, headers: outsider.bare }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/templates/instances/${mine}`, headers: agent.bare })).statusCode,
    ).toBe(204);
    expect((await t.app.inject({ url: `/templates/instances/${mine}`, headers: agent.bare })).statusCode).toBe(404);
    const row = await t.deps.db
      .selectFrom('template_instances')
      .select('deleted_at')
      .where('id', '=', mine)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
  });
});
