// `listing_url` and `listing_qr` of print templates (issue 32 item 5; docs/print-campaigns.md): the shipped postcard
// rendered for a listing carries the URL of the listing's page — Gable's public page with the instance's brand signed
// when LISTING_URL is unset, the brokerage's own page when it is set — and a QR code generated from exactly that URL
// (no QR decoder here: the code is regenerated from the expected URL with the same options and compared).
import QRCode from 'qrcode';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { marketer } from '../../../test/helpers/templates.js';
import { listingPageUrl } from '../public-pages/index.js';
import { seedTemplateLibrary } from './templates.library.js';
import { LISTING_QR_OPTIONS } from './listing-link.variables.js';

const decodeAttribute = (value: string) =>
  value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
const qrOf = (html: string) => decodeAttribute(/<img class="qr" src="([^"]*)"/.exec(html)?.[1] ?? '');
const printedUrl = (html: string) => decodeAttribute(/<span class="url muted">([^<]*)<\/span>/.exec(html)?.[1] ?? '');
const expectedQr = (url: string) => QRCode.toDataURL(url, LISTING_QR_OPTIONS);

/** A brand, a marketer in it, one ingested listing and the library's postcard, in the app `t`. */
function postcardWorld(t: TestApp, mlsNumber: string) {
  const world = { brand: '', listing: '', postcard: '', headers: {} as Record<string, string> };
  beforeAll(async () => {
    await seedTemplateLibrary(t.deps);
    world.brand = (await createBrand(t.deps, { name: 'Maple Realty' })).id;
    world.headers = (await marketer(t.deps, { brand: world.brand })).headers;
    const ingested = await t.app.inject({
      method: 'POST',
      url: '/mls/NTREIS/listings',
      headers: await clientHeaders(t.deps),
      payload: [sampleListing(mlsNumber, { status: 'Active', price: 450_000, original_price: 450_000 })],
    });
    expect(ingested.statusCode, ingested.body).toBe(200);
    world.listing = (
      await t.deps.db.selectFrom('listings').select('id').where('mls_number', '=', mlsNumber).executeTakeFirstOrThrow()
    ).id;
    const templates = (await t.app.inject({ url: '/templates?limit=100', headers: world.headers })).json().data as {
      id: string;
      medium: string;
    }[];
    world.postcard = templates.find((x) => x.medium === 'PostCard')!.id;
  });
  return world;
}

async function postcardHtml(t: TestApp, world: ReturnType<typeof postcardWorld>): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/templates/${world.postcard}/instances`,
    headers: world.headers,
    payload: { listings: [world.listing] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { html: string }).html;
}

describe('without LISTING_URL: the public listing page, the brand signed', () => {
  const t = useTestApp({ env: { CHROMIUM_PATH: 'none' } });
  const world = postcardWorld(t, 'QR-1');

  it('prints the page’s URL and a QR code of exactly it; the URL opens the page in the brand’s style', async () => {
    const html = await postcardHtml(t, world);
    const url = listingPageUrl(t.deps.config, world.listing, world.brand);
    expect(url).toMatch(new RegExp(`^${t.deps.config.webUrl}/l/${world.listing}\\?b=${world.brand}\\.[0-9a-f]{32}$`));
    expect(printedUrl(html)).toBe(url);
    expect(qrOf(html)).toBe(await expectedQr(url));
    // The code is not the same for any other address: the comparison can fail.
    expect(qrOf(html)).not.toBe(await expectedQr(listingPageUrl(t.deps.config, world.listing, null)));

    const page = await t.app.inject({ method: 'GET', url: url.slice(t.deps.config.webUrl.length) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Maple Realty');
  });
});

describe('with LISTING_URL: the brokerage’s own page', () => {
  const t = useTestApp({
    env: { CHROMIUM_PATH: 'none', LISTING_URL: 'https://homes.maple.example/{mls}/{mls_number}?id={id}' },
  });
  const world = postcardWorld(t, 'QR 2');

  it('fills the template and codes that URL', async () => {
    const html = await postcardHtml(t, world);
    const url = `https://homes.maple.example/NTREIS/QR%202?id=${world.listing}`;
    expect(printedUrl(html)).toBe(url);
    expect(qrOf(html)).toBe(await expectedQr(url));
  });
});
