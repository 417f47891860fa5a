// The listing page keeps a brand's theme and "takes leads" for PAGE_BRAND_TTL_MS (page-brand.cache.ts): what that
// may and may not do when the brand changes meanwhile in another process. A lead channel deleted after the brand
// was read leaves the form on the page a while; a post of that form answers "Questions are closed" (404), never a
// 5xx, and writes nothing. Once the entry is gone the page drops the form and shows the new palette.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { formTokenOf, leadFormWorld, type LeadFormWorld } from '../../../test/helpers/lead-form.js';
import { setOwnPalette } from '../brands/profile.repository.js';
import { signedBrandParameter } from './index.js';
import { MIN_FILL_SECONDS } from './lead-form.service.js';
import { forgetPageBrands } from './page-brand.cache.js';

describe('the listing page’s brand, kept a while per process', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let world: LeadFormWorld;

  beforeAll(async () => {
    world = await leadFormWorld(t.deps, t.app);
  });
  beforeEach(() => forgetPageBrands());
  afterEach(() => forgetPageBrands());

  const page = async () => {
    const b = signedBrandParameter(t.deps.config, world.listing, world.office);
    const res = await t.app.inject({ method: 'GET', url: `/l/${world.listing}?b=${b}` });
    expect(res.statusCode).toBe(200);
    return res.body;
  };
  const count = async (table: 'contacts' | 'contact_activities' | 'domain_events') =>
    Number(
      (
        await t.deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('a channel deleted after the page was read: the form stays a while, its post is refused and writes nothing', async () => {
    const token = formTokenOf(await page());
    // Deleted as another process would: nothing here hears of it.
    await t.deps.db
      .updateTable('lead_channels')
      .set({ deleted_at: t.clock.now() })
      .where('id', '=', world.channel)
      .execute();
    expect(formTokenOf(await page())).toBeTruthy(); // still offered: the brand was read moments ago

    const before = { contacts: await count('contacts'), activities: await count('contact_activities') };
    const events = await count('domain_events');
    t.clock.advance(MIN_FILL_SECONDS + 2);
    const res = await t.app.inject({
      method: 'POST',
      url: `/l/${world.listing}/ask`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token, name: 'Lena Lead', email: 'lena@example.com', website: '' }).toString(),
      remoteAddress: '198.51.100.77',
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('Questions are closed');
    expect({ contacts: await count('contacts'), activities: await count('contact_activities') }).toEqual(before);
    expect(await count('domain_events')).toBe(events);

    forgetPageBrands(); // PAGE_BRAND_TTL_MS later
    expect(await page()).not.toContain('<form');
  });

  it('a palette changed meanwhile shows once the entry has expired', async () => {
    expect(await page()).toContain('--accent:#0b5cad');
    await setOwnPalette(t.deps.db, world.office, { 'button-bg-color': '#7a1f5c' }, t.clock.now());
    expect(await page()).toContain('--accent:#0b5cad');
    forgetPageBrands();
    expect(await page()).toContain('--accent:#7a1f5c');
  });
});
