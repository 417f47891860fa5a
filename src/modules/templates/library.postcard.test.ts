// The shipped listing postcard (library/postcard-just-listed.html) reads the listing as a person would (issue 30
// item 7): a headline that follows its status, the price that applies (sold for, per month, reduced from), the
// brokerage's logo from the palette, a brand panel where there is no photo, and no dangling separator where the
// agent has no phone. Checked on the HTML the instance keeps (no browser: test/browser/render.test.ts renders).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { seedTemplateLibrary } from './templates.library.js';
import { marketer } from '../../../test/helpers/templates.js';

const t = useTestApp({ now: new Date('2026-11-24T10:00:00Z'), env: { CHROMIUM_PATH: 'none' } });
const LOGO = 'https://cdn.example.com/maple-wide.png';
const INVERTED_LOGO = 'https://cdn.example.com/maple-inverted.png';
let agent: Awaited<ReturnType<typeof marketer>>;
let postcard: string;
const listings: Record<string, string> = {};

const LISTINGS: Record<string, Record<string, unknown>> = {
  active: { status: 'Active', price: 450_000, original_price: 450_000 },
  reduced: { status: 'Active', price: 430_000, original_price: 475_000 },
  pending: { status: 'Pending', price: 450_000, original_price: 450_000 },
  sold: { status: 'Sold', price: 450_000, original_price: 450_000, close_price: 462_000, close_date: '2026-11-20' },
  noPhoto: { status: 'Active', price: 450_000, original_price: 450_000, gallery_image_urls: [] },
};

beforeAll(async () => {
  await seedTemplateLibrary(t.deps);
  const brand = (await createBrand(t.deps, { name: 'Maple Realty' })).id;
  await t.deps.db
    .updateTable('brands')
    .set({
      marketing_palette: JSON.stringify({ 'container-logo-wide': LOGO, 'inverted-logo-wide': INVERTED_LOGO }),
    })
    .where('id', '=', brand)
    .execute();
  agent = await marketer(t.deps, { brand });
  const records = Object.entries(LISTINGS).map(([name, fields]) =>
    sampleListing(`PC-${name}`, {
      ...(name === 'noPhoto' ? {} : { cover_image_url: `https://img.example.com/${name}.jpg` }),
      ...fields,
    }),
  );
  const ingested = await t.app.inject({
    method: 'POST',
    url: '/mls/NTREIS/listings',
    headers: await clientHeaders(t.deps),
    payload: records,
  });
  expect(ingested.statusCode, ingested.body).toBe(200);
  for (const name of Object.keys(LISTINGS))
    listings[name] = (
      await t.deps.db
        .selectFrom('listings')
        .select('id')
        .where('mls_number', '=', `PC-${name}`)
        .executeTakeFirstOrThrow()
    ).id;
  const templates = (await t.app.inject({ url: '/templates?limit=100', headers: agent.headers })).json().data as {
    id: string;
    medium: string;
  }[];
  postcard = templates.find((x) => x.medium === 'PostCard')!.id;
});

/** The postcard's HTML for one listing, as the instance keeps it. */
async function postcardFor(name: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/templates/${postcard}/instances`,
    headers: agent.headers,
    payload: { listings: [listings[name]] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { html: string }).html;
}
const headline = (html: string) => /<div class="tag accent">([^<]*)<\/div>/.exec(html)?.[1];
const price = (html: string) => /<div class="price accent">(.*?)<\/div>/s.exec(html)?.[1];

describe('the listing postcard of the template library', () => {
  it('heads the card by the listing’s status and shows the price that applies', async () => {
    const active = await postcardFor('active');
    expect(headline(active)).toBe('Just listed');
    expect(price(active)).toBe('$450,000');
    const reduced = await postcardFor('reduced');
    expect(headline(reduced)).toBe('Price reduced');
    expect(price(reduced)).toBe('$430,000<span class="was">$475,000</span>');
    expect(headline(await postcardFor('pending'))).toBe('Under contract');
    const sold = await postcardFor('sold');
    expect(headline(sold)).toBe('Just sold');
    expect(price(sold)).toBe('Sold for $462,000');
  });

  it('carries the brokerage’s logo, the photo or a brand panel in its place, and no dangling separator', async () => {
    const withPhoto = await postcardFor('active');
    expect(withPhoto).toContain(`<img class="logo" src="${LOGO}" alt="Maple Realty" />`);
    expect(withPhoto).toContain('background-image: url(https://img.example.com/active.jpg)');
    // The agent has no phone: the email stands alone on its line.
    expect(withPhoto).toMatch(/<br \/>[^<·]*@[^<]*<br \/>/);
    expect(withPhoto).not.toMatch(/<br \/>\s*·/);
    const noPhoto = await postcardFor('noPhoto');
    expect(noPhoto).not.toContain('background-image');
    expect(noPhoto).toContain(
      `<div class="photo band placeholder"><img src="${INVERTED_LOGO}" alt="Maple Realty" /></div>`,
    );
  });
});
