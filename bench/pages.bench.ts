// The public pages' figures (issue 32 "Benchmark"; docs/public-pages.md "Speed"): the listing page GET /l/:listing
// against the authenticated GET /listings/:id of the same listings in the same run, and the alert results page
// GET /a/:token. Everything is set up as a brokerage would have it — a palette with a logo, a lead channel (so the
// page carries the "Ask about this home" form), links with the signed `b` brand parameter the alert emails write, a
// saved search with a contact and the alert token its email links to — through the API where the API does it.
import { sql } from 'kysely';
import type { Deps } from '../src/platform/deps.js';
import { PUBLIC_STATUSES } from '../src/modules/listings/search/filters.query.js';
import { alertToken } from '../src/modules/public-pages/alert-token.js';
import { signedBrandParameter } from '../src/modules/public-pages/index.js';
import type { FoundationFixture } from './foundation.bench.js';
import { closedLoop, type LoadResult } from './lib/load.js';

/** Listings the page and API scenarios cycle through: enough that no single row sits hot in every cache. */
export const POOL_SIZE = 500;
const PALETTE = {
  'body-bg-color': '#ffffff',
  'body-text-color': '#102030',
  'button-bg-color': '#0b5cad',
  'button-text-color': '#ffffff',
  'container-logo-wide': 'https://cdn.bench.example/logo-wide.png',
  locale: 'en-US',
  phone_number: '+1 214 555 0100',
};

export interface PagesBenchResult {
  results: LoadResult[];
  notes: string[];
}

async function api(
  url: string,
  fixture: FoundationFixture & { brand: string },
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${fixture.accessToken}`,
      'x-rechat-brand': fixture.brand,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as { data: { id: string } };
}

/** The fixture's brand (the one its token acts for). */
async function fixtureBrand(deps: Deps, fixture: FoundationFixture): Promise<string> {
  const row = await deps.db
    .selectFrom('users')
    .select('active_brand')
    .where('id', '=', fixture.userId)
    .executeTakeFirstOrThrow();
  return row.active_brand!;
}

/**
 * Publicly displayable listings (the anonymous search's rule) with photos and an open house where the data has them:
 * the fullest pages. Drawn from across the table, not its first rows.
 */
async function displayablePool(deps: Deps): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select l.id from listings l tablesample system (2)
    where l.deleted_at is null and l.status = any(${[...PUBLIC_STATUSES]}::text[]) and l.office_exclusive is not true
    order by exists (select 1 from listing_open_houses o where o.listing = l.id) desc, l.id
    limit ${POOL_SIZE}`.execute(deps.db);
  if (rows.length < 10) {
    const { rows: all } = await sql<{ id: string }>`
      select id from listings l
      where l.deleted_at is null and l.status = any(${[...PUBLIC_STATUSES]}::text[]) and l.office_exclusive is not true
      limit ${POOL_SIZE}`.execute(deps.db);
    return all.map((r) => r.id);
  }
  return rows.map((r) => r.id);
}

/** How many homes the results page of `token` says match now (its "N homes match now"). */
async function matchCount(url: string, token: string): Promise<number> {
  const page = await (await fetch(`${url}/a/${token}`)).text();
  const count = /([\d,]+) homes? match/.exec(page)?.[1];
  if (count === undefined) throw new Error('pages: the results page does not say how many homes match');
  return Number(count.replaceAll(',', ''));
}

export async function benchPages(
  deps: Deps,
  url: string,
  fixture: FoundationFixture,
  options: { requests: number; concurrency: number },
): Promise<PagesBenchResult> {
  const brand = await fixtureBrand(deps, fixture);
  const as = { ...fixture, brand };
  await api(url, as, 'PUT', `/brands/${brand}/settings/marketing_palette`, PALETTE);
  await api(url, as, 'POST', `/brands/${brand}/leads/channels`, { title: 'Bench website' });
  const pool = await displayablePool(deps);
  if (pool.length === 0) throw new Error('pages: no publicly displayable listing to show');
  const withOpenHouse = Number(
    (
      await sql<{
        n: string;
      }>`select count(distinct listing) as n from listing_open_houses where listing = any(${pool}::uuid[])`.execute(
        deps.db,
      )
    ).rows[0]!.n,
  );
  // The links as an alert email writes them (listingLinkUrl with LISTING_URL unset): the brand signed per listing.
  const pagePaths = pool.map((id) => `/l/${id}?b=${signedBrandParameter(deps.config, id, brand)}`);
  const apiPaths = pool.map((id) => `/listings/${id}`);
  const bearer = { authorization: `Bearer ${fixture.accessToken}` };

  // The results pages: a contact on saved searches around the first listing of the pool (so they have results).
  // The seeded listings crowd into a few metros, so a square's match count depends on where it falls: the notes say
  // how many each search matched.
  const contact = await api(url, as, 'POST', '/contacts', {
    first_name: 'Bench',
    last_name: 'Contact',
    emails: [`bench-pages-${Date.now()}@example.com`],
  });
  const { rows: at } = await sql<{ x: number; y: number }>`
    select location[0] as x, location[1] as y from listings where id = ${pool[0]}`.execute(deps.db);
  const { x, y } = at[0] ?? { x: -96.797, y: 32.7767 };
  const alertSearch = async (title: string, r: number) => {
    const search = await api(url, as, 'POST', `/brands/${brand}/saved-searches`, {
      title,
      points: [
        { longitude: x - r, latitude: y - r },
        { longitude: x + r, latitude: y - r },
        { longitude: x + r, latitude: y + r },
        { longitude: x - r, latitude: y + r },
        { longitude: x - r, latitude: y - r },
      ],
      contacts: [contact.data.id],
      frequency: 'Instant',
    });
    const token = alertToken(
      deps.config,
      { search: search.data.id, contact: contact.data.id },
      new Date(Date.now() + 90 * 86_400_000),
    );
    return { path: `/a/${token}`, matches: await matchCount(url, token) };
  };
  // A neighbourhood (~2 km square), what an alert usually watches; and a whole district (~10 km square), thousands
  // of matches in a metro: the page counts them all (its "N homes match now" and its pager), so it reads them all.
  const neighbourhood = await alertSearch('Bench pages', 0.01);
  const district = await alertSearch('Bench pages district', 0.05);

  // Each path answers 200 before it is measured: a bench of 404 pages would measure the wrong page.
  for (const [path, headers] of [
    [apiPaths[0]!, bearer],
    [pagePaths[0]!, {}],
    [neighbourhood.path, {}],
    [district.path, {}],
  ] as const) {
    const res = await fetch(`${url}${path}`, { headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`pages: GET ${path} answered ${res.status}: ${body.slice(0, 300)}`);
    if (path === pagePaths[0] && !body.includes('Ask about this home'))
      throw new Error('pages: the listing page does not carry the lead form (the brand has a channel)');
  }

  const c = options.concurrency;
  const loop = (name: string, paths: string[], headers: Record<string, string>, requests = options.requests) =>
    closedLoop(`${name} [c=${c}]`, url, (i) => ({ method: 'GET', path: paths[i % paths.length]!, headers }), {
      concurrency: c,
      requests,
    });
  // Warm-up of each route, not counted (JIT, the statements' plans, the pool's rows in the buffer cache).
  await loop('warm-up', apiPaths, bearer, Math.min(options.requests, pool.length * 2));
  await loop('warm-up', pagePaths, {}, Math.min(options.requests, pool.length * 2));
  await loop('warm-up', [neighbourhood.path], {}, Math.min(options.requests, 200));
  await loop('warm-up', [district.path], {}, Math.min(options.requests, 200));

  // API and page alternate twice, so a change of load on the shared machine lands on both.
  const apiRuns: LoadResult[] = [];
  const pageRuns: LoadResult[] = [];
  for (let round = 0; round < 2; round++) {
    apiRuns.push(await loop(`GET /listings/:id (bearer, ${pool.length} listings)`, apiPaths, bearer));
    pageRuns.push(await loop(`GET /l/:listing?b=… (${pool.length} listings)`, pagePaths, {}));
  }
  const results = await loop(
    `GET /a/:token (results page, neighbourhood: ${neighbourhood.matches} matches)`,
    [neighbourhood.path],
    {},
    Math.ceil(options.requests / 2),
  );
  const districtResults = await loop(
    `GET /a/:token (results page, district: ${district.matches} matches)`,
    [district.path],
    {},
    Math.ceil(options.requests / 2),
  );
  const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
  const apiBest = best(apiRuns);
  const pageBest = best(pageRuns);
  const ratio = (pageRuns[0]!.rps / apiRuns[0]!.rps + pageRuns[1]!.rps / apiRuns[1]!.rps) / 2;
  const cpuRatio =
    apiBest.cpuMs !== undefined && pageBest.cpuMs !== undefined ? apiBest.cpuMs / pageBest.cpuMs : undefined;
  const ms = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(1));
  const notes = [
    `pages: ${pool.length} publicly displayable listings (${withOpenHouse} with open houses), brand palette with a logo, a lead channel (the form shown), \`b\` signed as alert links carry it`,
    `pages: GET /l/:listing p95 ${ms(pageBest.p95)} ms (target ≤ 15) at c=${c}, ${pageBest.rps.toFixed(0)} req/s; GET /listings/:id p95 ${ms(apiBest.p95)} ms, ${apiBest.rps.toFixed(0)} req/s; page/API throughput ${ratio.toFixed(2)}× (target ≥ 0.8; mean of two alternating rounds: ${pageRuns.map((p, i) => (p.rps / apiRuns[i]!.rps).toFixed(2)).join(', ')})${cpuRatio === undefined ? '' : `, CPU per request API/page ${cpuRatio.toFixed(2)}×`}`,
    `pages: GET /a/:token (results page) p95 ${ms(results.p95)} ms (target ≤ 40) at c=${c}, ${results.rps.toFixed(0)} req/s, for a neighbourhood search (${neighbourhood.matches} matches); ${ms(districtResults.p95)} ms, ${districtResults.rps.toFixed(0)} req/s for a district (${district.matches} matches)`,
  ];
  return { results: [...apiRuns, ...pageRuns, results, districtResults], notes };
}
