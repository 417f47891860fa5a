// Where the alert results page's time goes, in process, on a bench database kept by
// `npm run bench -- --only pages --keep`: each step of GET /a/:token timed alone for the bench's saved search
// ("Bench pages"), in wall time and in this process's CPU (Node's share; the database's is not in it).
//   DATABASE_URL=postgres://…/gable_bench_pages node bin/run-ts.js bench/results-page.profile.ts
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { closeDeps, createDeps } from '../src/deps.js';
import { firstLiveBrandPalette } from '../src/modules/brands/index.js';
import { findListingCardRowsPrepared, searchListingIds } from '../src/modules/listings/index.js';
import { alertToken } from '../src/modules/public-pages/alert-token.js';
import { showAlertResults } from '../src/modules/public-pages/alert-pages.service.js';
import { alertResultsPage, RESULTS_PER_PAGE } from '../src/modules/public-pages/alert-results.view.js';
import { PageFormat } from '../src/modules/public-pages/page-format.js';
import { themeOf } from '../src/modules/public-pages/theme.js';
import { alertResults, findAlertSearch } from '../src/modules/saved-searches/index.js';
import { listingCardsPrepared } from '../src/modules/saved-searches/delivery.email.js';

const deps = await createDeps(loadConfig({ ...process.env, SECRET_KEY: process.env.SECRET_KEY ?? 'a'.repeat(64) }));
const rounds = Number(process.env.ROUNDS ?? 300);
try {
  const { rows } = await sql<{ search: string; contact: string; brand: string }>`
    select s.id as search, c.contact, s.brand from saved_searches s
    join saved_search_contacts c on c.saved_search = s.id
    where s.title = 'Bench pages' and s.deleted_at is null order by s.created_at desc limit 1`.execute(deps.db);
  if (!rows[0]) throw new Error('no "Bench pages" saved search: run `npm run bench -- --only pages --keep` first');
  const pair = { search: rows[0].search, contact: rows[0].contact };
  const token = alertToken(deps.config, pair, new Date(Date.now() + 86_400_000));
  const time = async (name: string, step: () => unknown) => {
    for (let i = 0; i < 30; i++) await step();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (let i = 0; i < rounds; i++) await step();
    const cpu = process.cpuUsage(c0);
    const wall = ((performance.now() - t0) / rounds) * 1000;
    console.log(`${name}: ${wall.toFixed(0)} µs wall, ${((cpu.user + cpu.system) / rounds).toFixed(0)} µs CPU here`);
  };
  const search = (await findAlertSearch(deps, pair))!;
  const request = {
    criteria: search.criteria,
    sort: [],
    start: 0,
    limit: RESULTS_PER_PAGE,
    anchor: 'required' as const,
    publicOnly: true,
  };
  const page = await searchListingIds(deps, null, request);
  const { cards, total } = await alertResults(deps, search, { start: 0, limit: RESULTS_PER_PAGE });
  const theme = themeOf((await firstLiveBrandPalette(deps, [search.brand])) ?? null);
  console.log(`${total} matches, ${cards.length} cards`);
  await time('whole page (showAlertResults)', () => showAlertResults(deps, token, 1));
  await time('query: findAlertSearch', () => findAlertSearch(deps, pair));
  await time('query: firstLiveBrandPalette', () => firstLiveBrandPalette(deps, [search.brand]));
  await time('query: searchListingIds', () => searchListingIds(deps, null, request));
  await time('query: findListingCardRowsPrepared', () => findListingCardRowsPrepared(deps.database, page.ids));
  await time('cards (listingCardsPrepared: read + format)', () =>
    listingCardsPrepared(deps.database, deps.config, page.ids, search.brand),
  );
  await time('query: select 1 (a round trip)', () => sql`select 1`.execute(deps.db));
  await time('render (alertResultsPage)', () =>
    alertResultsPage({
      theme,
      appName: 'Gable',
      format: new PageFormat(theme.locale, 'UTC'),
      title: search.title,
      cards,
      total,
      page: 1,
      selfPath: '/a/x',
      preferencesPath: '/a/x/preferences',
    }),
  );
} finally {
  await closeDeps(deps);
}
