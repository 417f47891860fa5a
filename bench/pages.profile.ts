// Where the listing page's time goes, in process, on a bench database kept by `npm run bench -- --only pages --keep`:
// each step of GET /l/:listing timed alone over the same pool of listings (docs/public-pages.md "Speed"), in wall
// time and in this process's CPU (Node's share; the database's CPU per statement is not in it).
//   DATABASE_URL=postgres://…/gable_bench_pages node bin/run-ts.js bench/pages.profile.ts
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { closeDeps, createDeps } from '../src/deps.js';
import { firstLiveBrandPalette } from '../src/modules/brands/index.js';
import { defaultLeadChannel } from '../src/modules/contacts/index.js';
import { findPublicListing } from '../src/modules/listings/index.js';
import { PUBLIC_STATUSES } from '../src/modules/listings/search/filters.query.js';
import { signedBrandParameter, verifiedBrand } from '../src/modules/public-pages/index.js';
import { showListingPage } from '../src/modules/public-pages/listing-page.service.js';
import { listingPage } from '../src/modules/public-pages/listing-page.view.js';
import { PageFormat } from '../src/modules/public-pages/page-format.js';
import { themeOf } from '../src/modules/public-pages/theme.js';

const deps = await createDeps(loadConfig({ ...process.env, SECRET_KEY: process.env.SECRET_KEY ?? 'a'.repeat(64) }));
const rounds = Number(process.env.ROUNDS ?? 2000);
try {
  const { rows: brands } = await sql<{
    brand: string;
  }>`select brand from lead_channels where deleted_at is null order by created_at desc limit 1`.execute(deps.db);
  const brand = brands[0]!.brand;
  const { rows } = await sql<{
    id: string;
  }>`select id from listings where status = any(${[...PUBLIC_STATUSES]}::text[]) and office_exclusive is not true limit 500`.execute(
    deps.db,
  );
  const ids = rows.map((r) => r.id);
  const bs = ids.map((id) => signedBrandParameter(deps.config, id, brand));
  const time = async (name: string, step: (i: number) => unknown) => {
    for (let i = 0; i < 200; i++) await step(i);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (let i = 0; i < rounds; i++) await step(i);
    const cpu = process.cpuUsage(c0);
    const wall = ((performance.now() - t0) / rounds) * 1000;
    // CPU of this process (Node's side: the database's is not in it): what holds still on a loaded machine.
    console.log(`${name}: ${wall.toFixed(0)} µs wall, ${((cpu.user + cpu.system) / rounds).toFixed(0)} µs CPU here`);
  };
  const listings = await Promise.all(ids.map((id) => findPublicListing(deps, id)));
  const palette = (await firstLiveBrandPalette(deps, [brand]))!;
  const theme = themeOf(palette);
  const now = new Date();
  await time('whole page (showListingPage)', (i) => showListingPage(deps, ids[i % ids.length]!, bs[i % ids.length]));
  await time('query: findPublicListing', (i) => findPublicListing(deps, ids[i % ids.length]!));
  await time('query: firstLiveBrandPalette', () => firstLiveBrandPalette(deps, [brand]));
  await time('query: defaultLeadChannel', () => defaultLeadChannel(deps, brand));
  await time('query: select 1 (a round trip)', () => sql`select 1`.execute(deps.db));
  await time('signature check (verifiedBrand)', (i) =>
    verifiedBrand(deps.config, ids[i % ids.length]!, bs[i % ids.length]),
  );
  await time('theme (palette contrast)', () => themeOf(palette));
  await time('PageFormat construction', () => new PageFormat(theme.locale, 'America/Chicago'));
  await time('render (listingPage)', (i) =>
    listingPage({
      record: listings[i % ids.length]!.record,
      theme,
      format: new PageFormat(theme.locale, 'America/Chicago'),
      pageUrl: 'http://x/l/1',
      now,
      appName: 'Gable',
      ask: { action: '/l/x/ask', token: 'x', brandName: 'B' },
    }),
  );
} finally {
  await closeDeps(deps);
}
