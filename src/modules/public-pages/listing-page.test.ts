// GET /l/:listing, the public listing page (decisions §21; docs/public-pages.md): what it shows, in which brand's
// style, to whom (publicly displayable listings only), and that nothing of a listing reaches the page unescaped.
import { parseDocument, DomUtils } from 'htmlparser2';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { addMembership, createBrand, createUser } from '../../../test/helpers/factories.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { setMls } from '../listings/mls-registry.service.js';
import { setOwnPalette } from '../brands/profile.repository.js';
import { listingPageUrl, signedBrandParameter } from './index.js';

const MLS = 'NTREIS';
const OFFICE_PALETTE = {
  'body-bg-color': '#ffffff',
  'body-text-color': '#102030',
  'button-bg-color': '#0b5cad',
  'button-text-color': '#ffffff',
  'container-logo-wide': 'https://cdn.office.example/logo-wide.png',
  address: { full: '2200 Ross Ave, Dallas, TX 75201' },
  phone_number: '+1 214 555 0100',
};
// A brand whose colours fail AA where they are used: pale yellow text on white, white on a light button.
const LINK_PALETTE = {
  'body-bg-color': '#ffffff',
  'body-text-color': '#ffff66',
  'button-bg-color': '#aaddff',
  'button-text-color': '#ffffff',
  'container-logo-wide': 'https://cdn.partner.example/partner-logo.png',
  locale: 'fr-FR',
};

type Document = ReturnType<typeof parseDocument>;
type Element = NonNullable<ReturnType<typeof DomUtils.findOne>>;
const parse = (body: string) => parseDocument(body);
const all = (doc: Document, test: (el: Element) => boolean) => DomUtils.findAll(test, doc.children);
const one = (doc: Document, test: (el: Element) => boolean) => DomUtils.findOne(test, doc.children);
const byTag = (tag: string) => (el: Element) => el.name === tag;
const meta = (doc: Document, key: string) =>
  one(doc, (el) => el.name === 'meta' && (el.attribs.property === key || el.attribs.name === key))?.attribs.content;
const text = (el: Element | null) => (el ? DomUtils.textContent(el).replace(/\s+/g, ' ').trim() : '');
const themeCss = (doc: Document) => DomUtils.textContent(all(doc, byTag('style'))[1]!);

describe('GET /l/:listing (public listing page)', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  const ids: Record<string, string> = {};
  let office: string;
  let partner: string;

  beforeAll(async () => {
    const feed = await clientHeaders(t.deps);
    const records = [
      sampleListing('P-1', {
        list_office_name: 'Demo Realty Downtown',
        open_houses: [
          { start_time: '2026-11-28T16:00:00Z', end_time: '2026-11-28T18:00:00Z', description: 'Saturday tour' },
          { start_time: '2026-11-01T16:00:00Z', end_time: '2026-11-01T18:00:00Z', description: 'Long gone' },
        ],
      }),
      sampleListing('P-WITHDRAWN', { status: 'Withdrawn' }),
      sampleListing('P-EXCLUSIVE', { office_exclusive: true }),
      sampleListing('P-XSS', {
        list_agent_mui: 'NOBODY',
        content: '</p><script>alert(1)</script><img src=x onerror=alert(2)> "quoted" & </script><!--',
        property: {
          ...(sampleListing('x').property as object),
          address: {
            street_number: '1',
            street_name: '<b>Main</b> St"><script>alert(3)</script>',
            city: 'Dallas',
            state: 'TX',
            postal_code: '75201',
          },
        },
      }),
      sampleListing('P-SOLD', {
        status: 'Sold',
        close_price: 440_000,
        close_date: '2026-11-10T15:00:00Z',
        list_agent_mui: 'NOBODY',
      }),
    ];
    const res = await t.app.inject({ method: 'POST', url: `/mls/${MLS}/listings`, headers: feed, payload: records });
    expect(res.json().data.created).toBe(records.length);
    const rows = await t.deps.db.selectFrom('listings').select(['id', 'mls_number']).execute();
    for (const row of rows) ids[row.mls_number] = row.id;
    await setMls(
      t.deps.db,
      MLS,
      { name: 'North Texas MLS', disclaimer: '© {{currentYear}} North Texas MLS. Deemed reliable.' },
      t.clock.now(),
    );

    // The listing agent AG-1 is Dana, a member of the office brand: unsigned links take the office's style.
    office = (await createBrand(t.deps, { name: 'Demo Realty Downtown', brand_type: 'Office' })).id;
    partner = (await createBrand(t.deps, { name: 'Partner Homes' })).id;
    await setOwnPalette(t.deps.db, office, OFFICE_PALETTE, t.clock.now());
    await setOwnPalette(t.deps.db, partner, LINK_PALETTE, t.clock.now());
    const dana = await createUser(t.deps, { first_name: 'Dana', last_name: 'Reyes' });
    await addMembership(t.deps, dana.id, office);
    const agent = await t.deps.db
      .insertInto('agents')
      .values({
        mls: MLS,
        mlsid: 'AG-1-ID',
        mls_unique_id: 'AG-1',
        full_name: 'Dana Reyes',
        work_phone: '(214) 555-0142',
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.deps.db.insertInto('user_agents').values({ user: dana.id, agent: agent.id }).execute();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

  it('shows the listing as a person reads it, in the listing agent’s brand when the link names none', async () => {
    const res = await get(`/l/${ids['P-1']}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+' 'sha256-[^']+'/,
    );
    expect(res.body.startsWith('<!doctype html>')).toBe(true);
    const doc = parse(res.body);
    expect(one(doc, byTag('html'))?.attribs.lang).toBe('en-US');
    expect(text(one(doc, byTag('h1')))).toBe('4521 Maple Ave');
    const page = text(one(doc, byTag('main')));
    for (const expected of [
      'Dallas, TX 75219',
      '$450,000',
      'Was $475,000',
      '3 beds',
      '2.5 baths',
      '1,850 sq ft',
      '6,997 sq ft lot',
      'Active',
      '50 days on market',
      'Charming bungalow with a large backyard',
      // 16:00Z on a Dallas (Central) listing, in the property's own zone.
      'Sat, Nov 28, 10:00 AM – 12:00 PM CST',
      'Saturday tour',
      'Dana Reyes',
      'Demo Realty Downtown',
    ])
      expect(page.replace(/\u202f|\u2009/g, ' ')).toContain(expected);
    expect(page).not.toContain('Long gone'); // past open houses are not shown
    const terms = all(doc, byTag('dt'));
    const details = Object.fromEntries(terms.map((dt) => [text(dt), text(DomUtils.nextElementSibling(dt))]));
    expect(details).toEqual({
      'Property type': 'RES-Single Family',
      'Year built': '1998',
      Bathrooms: '2 full, 1 half',
      'Parking spaces': '3',
      Pool: 'Yes',
      Listed: 'Oct 1, 2026',
      'MLS #': 'P-1',
      'Interior features': 'Fireplace',
    });
    const footer = text(one(doc, byTag('footer')));
    expect(footer).toContain('© 2026 North Texas MLS. Deemed reliable.');
    expect(footer).toContain('Listing courtesy of Demo Realty Downtown.');
    expect(footer).toContain('2200 Ross Ave, Dallas, TX 75201');
    const call = one(
      doc,
      (el) => el.name === 'a' && el.attribs.href?.startsWith('tel:') === true && text(el).startsWith('Call'),
    );
    expect(call?.attribs.href).toBe('tel:2145550142');

    // The office's palette and logo.
    expect(one(doc, (el) => el.name === 'img' && el.attribs.class === 'logo')?.attribs.src).toBe(
      OFFICE_PALETTE['container-logo-wide'],
    );
    expect(themeCss(doc)).toContain('--accent:#0b5cad');
    expect(themeCss(doc)).toContain('--text:#102030');

    // Photos: width and height set; all but the first lazy.
    const photos = all(
      doc,
      (el) => el.name === 'img' && el.parent?.type === 'tag' && (el.parent as Element).name === 'li',
    );
    expect(photos.map((img) => img.attribs.src)).toEqual([
      'https://img.example.com/1.jpg',
      'https://img.example.com/2.jpg',
    ]);
    for (const img of photos) {
      expect(img.attribs.width).toBe('800');
      expect(img.attribs.height).toBe('600');
      expect(img.attribs.alt).toMatch(/^Photo \d of 2: 4521 Maple Ave$/);
    }
    expect(photos.slice(1).every((img) => img.attribs.loading === 'lazy')).toBe(true);
    // Every image on the page has its box (no layout shift) and a text alternative.
    for (const img of all(doc, byTag('img'))) {
      expect(img.attribs.width, img.attribs.src).toMatch(/^\d+$/);
      expect(img.attribs.height, img.attribs.src).toMatch(/^\d+$/);
      expect(img.attribs.alt, img.attribs.src).toBeTruthy();
    }
    // No script runs: the only script element is the JSON-LD data block.
    expect(all(doc, byTag('script')).map((el) => el.attribs.type)).toEqual(['application/ld+json']);
    // No id twice (valid HTML).
    const idList = all(doc, (el) => el.attribs.id !== undefined).map((el) => el.attribs.id);
    expect(new Set(idList).size).toBe(idList.length);
  });

  it('previews as a shared link: Open Graph, Twitter card and RealEstateListing JSON-LD', async () => {
    const res = await get(`/l/${ids['P-1']}`);
    const doc = parse(res.body);
    const url = `http://gable.test/l/${ids['P-1']}`;
    expect(meta(doc, 'og:title')).toBe('4521 Maple Ave, Dallas, TX 75219 · $450,000');
    expect(meta(doc, 'og:description')).toMatch(/^3 beds · 2.5 baths · 1,850 sq ft — Charming bungalow/);
    expect(meta(doc, 'og:image')).toBe('https://img.example.com/1.jpg');
    expect(meta(doc, 'og:url')).toBe(url);
    expect(meta(doc, 'og:site_name')).toBe('Demo Realty Downtown');
    expect(meta(doc, 'twitter:card')).toBe('summary_large_image');
    expect(meta(doc, 'twitter:image')).toBe('https://img.example.com/1.jpg');
    expect(one(doc, (el) => el.name === 'link' && el.attribs.rel === 'canonical')?.attribs.href).toBe(url);
    const script = one(doc, (el) => el.name === 'script' && el.attribs.type === 'application/ld+json');
    const data = JSON.parse(DomUtils.textContent(script!));
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'RealEstateListing',
      url,
      image: ['https://img.example.com/1.jpg', 'https://img.example.com/2.jpg'],
      datePosted: '2026-10-01T15:00:00.000Z',
      offers: { '@type': 'Offer', price: 450_000, priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
      about: {
        address: { '@type': 'PostalAddress', streetAddress: '4521 Maple Ave', addressLocality: 'Dallas' },
        numberOfBedrooms: 3,
        numberOfBathroomsTotal: 2.5,
      },
    });
  });

  it('a signed b styles the page with its brand (palette, logo, locale) and fixes what fails contrast', async () => {
    const url = listingPageUrl(t.deps.config, ids['P-1']!, partner);
    expect(url).toBe(
      `http://gable.test/l/${ids['P-1']}?b=${signedBrandParameter(t.deps.config, ids['P-1']!, partner)}`,
    );
    const res = await get(pathOf(url));
    expect(res.statusCode).toBe(200);
    const doc = parse(res.body);
    expect(one(doc, (el) => el.name === 'img' && el.attribs.class === 'logo')?.attribs.src).toBe(
      LINK_PALETTE['container-logo-wide'],
    );
    expect(meta(doc, 'og:site_name')).toBe('Partner Homes');
    expect(meta(doc, 'og:url')).toBe(url);
    // Pale yellow text on white fails AA → black; white on the light blue button fails → black.
    expect(themeCss(doc)).toContain('--text:#000000');
    expect(themeCss(doc)).toContain('--accent:#aaddff;--accent-text:#000000');
    // fr-FR: prices, numbers and dates in French.
    expect(one(doc, byTag('html'))?.attribs.lang).toBe('fr-FR');
    const price = text(one(doc, (el) => el.attribs.class === 'price'));
    expect(price.replace(/\s/g, ' ')).toBe('450 000 $US');
    expect(text(one(doc, byTag('main')))).toContain('172 m²'); // 171.87 m², metric
  });

  it('a tampered or misplaced b is ignored: the office brand (or neutral), never the forged one', async () => {
    const signed = signedBrandParameter(t.deps.config, ids['P-1']!, partner);
    const forgedBrand = signed.replace(partner, office === partner ? partner : (await createBrand(t.deps)).id);
    const flipped = signed.slice(0, -1) + (signed.endsWith('0') ? '1' : '0');
    const otherListing = signedBrandParameter(t.deps.config, ids['P-SOLD']!, partner);
    for (const b of [forgedBrand, flipped, otherListing, 'garbage', `${partner}.`, `${partner}`]) {
      const res = await get(`/l/${ids['P-1']}?b=${encodeURIComponent(b)}`);
      expect(res.statusCode, b).toBe(200);
      expect(res.body, b).not.toContain('partner-logo.png');
      expect(res.body, b).toContain('logo-wide.png'); // the listing agent's office
      expect(meta(parse(res.body), 'og:url')).toBe(`http://gable.test/l/${ids['P-1']}`);
    }
    // A listing whose agent maps to no brand: neutral.
    const neutral = await get(`/l/${ids['P-SOLD']}?b=${encodeURIComponent(signed)}`);
    expect(neutral.statusCode).toBe(200);
    expect(neutral.body).not.toContain('partner-logo.png');
    expect(text(one(parse(neutral.body), (el) => el.attribs.class === 'brand-name'))).toBe('Gable');
  });

  it('a sold listing shows its close price and date', async () => {
    const doc = parse((await get(`/l/${ids['P-SOLD']}`)).body);
    expect(text(one(doc, (el) => el.attribs.class === 'price'))).toBe('$440,000');
    expect(text(one(doc, (el) => el.attribs.class === 'price-note'))).toBe('Sold on Nov 10, 2026');
    expect(text(one(doc, (el) => el.attribs.class === 'dom'))).toBe('40 days on market');
  });

  it('answers the friendly 404 page for a listing that is not public, deleted, unknown or malformed', async () => {
    await t.deps.db
      .updateTable('listings')
      .set({ deleted_at: t.clock.now() })
      .where('mls_number', '=', 'P-SOLD')
      .execute();
    try {
      const paths = [
        `/l/${ids['P-WITHDRAWN']}`,
        `/l/${ids['P-EXCLUSIVE']}`,
        `/l/${ids['P-SOLD']}`,
        '/l/00000000-0000-4000-8000-000000000000',
        '/l/not-a-uuid',
        `/l/${'x'.repeat(300)}`,
        `/l/${ids['P-1']}x`,
      ];
      for (const path of paths) {
        const res = await get(path);
        expect(res.statusCode, path).toBe(404);
        expect(res.headers['content-type'], path).toBe('text/html; charset=utf-8');
        expect(res.headers['content-security-policy'], path).toContain("default-src 'none'");
        const doc = parse(res.body);
        expect(text(one(doc, byTag('h1'))), path).toBe('We couldn’t find this home');
        expect(res.body, path).not.toContain('Maple');
      }
    } finally {
      await t.deps.db.updateTable('listings').set({ deleted_at: null }).where('mls_number', '=', 'P-SOLD').execute();
    }
    // The 404 of a signed link keeps its brand.
    const signed = listingPageUrl(t.deps.config, ids['P-WITHDRAWN']!, partner);
    const res = await get(pathOf(signed));
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('partner-logo.png');
  });

  it('escapes HTML of the listing everywhere (body, title, meta tags, JSON-LD)', async () => {
    const res = await get(`/l/${ids['P-XSS']}`);
    expect(res.statusCode).toBe(200);
    const doc = parse(res.body);
    expect(all(doc, byTag('script')).map((el) => el.attribs.type)).toEqual(['application/ld+json']);
    expect(all(doc, (el) => Object.keys(el.attribs).some((name) => name.startsWith('on')))).toEqual([]);
    expect(all(doc, byTag('b'))).toEqual([]);
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).not.toContain('<img src=x');
    // The text reads as written.
    expect(text(one(doc, byTag('h1')))).toBe('1 <b>Main</b> St"><script>alert(3)</script>');
    expect(text(one(doc, (el) => el.attribs.class === 'remarks'))).toContain('<script>alert(1)</script>');
    expect(meta(doc, 'og:title')).toContain('<b>Main</b>');
    const json = DomUtils.textContent(one(doc, (el) => el.name === 'script')!);
    expect(json).not.toMatch(/[<>]/);
    expect(JSON.parse(json).description).toBe(
      '</p><script>alert(1)</script><img src=x onerror=alert(2)> "quoted" & </script><!--',
    );
  });

  it('stays under 100 KB of HTML and CSS before photos, even with a long listing', async () => {
    const feed = await clientHeaders(t.deps);
    const big = sampleListing('P-BIG', {
      content: 'A long description of a large home. '.repeat(400).trim(), // ~14 kB, longer than MLS remarks get
      gallery_image_urls: Array.from(
        { length: 100 },
        (_, i) => `https://img.example.com/big/${i + 1}-${'p'.repeat(80)}.jpg`,
      ),
      open_houses: Array.from({ length: 10 }, (_, i) => ({
        start_time: `2026-12-${String(i + 1).padStart(2, '0')}T16:00:00Z`,
        end_time: `2026-12-${String(i + 1).padStart(2, '0')}T18:00:00Z`,
        description: 'Open house with refreshments',
      })),
    });
    await t.app.inject({ method: 'POST', url: `/mls/${MLS}/listings`, headers: feed, payload: [big] });
    const id = (
      await t.deps.db.selectFrom('listings').select('id').where('mls_number', '=', 'P-BIG').executeTakeFirstOrThrow()
    ).id;
    const res = await get(`/l/${id}`);
    expect(res.statusCode).toBe(200);
    // The page has no stylesheet or script to fetch: its size is all of its HTML and CSS.
    const doc = parse(res.body);
    expect(all(doc, (el) => el.name === 'link' && el.attribs.rel === 'stylesheet')).toEqual([]);
    expect(Buffer.byteLength(res.body)).toBeLessThan(100 * 1024);
    // The gallery is capped.
    expect(all(doc, (el) => el.name === 'img' && el.attribs.src?.includes('/big/') === true)).toHaveLength(60);
  });
});
