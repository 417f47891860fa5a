// Print figures (issue 15): render time per medium and postcard throughput with the pooled browser (target
// ≥ 5 postcards/s, PDF + PNG preview each), and `GET /brands/:brand/print-campaigns` p95 with 10,000 campaigns.
// Renders run in this process through the same Renderer the render job uses; the list runs over HTTP.
import { sql } from 'kysely';
import type { Deps } from '../src/platform/deps.js';
import { libraryHtml, seedTemplateLibrary, TEMPLATE_LIBRARY } from '../src/modules/templates/templates.library.js';
import { renderTemplate } from '../src/modules/templates/template-language.js';
import type { Medium } from '../src/render/mediums.js';
import type { FoundationFixture } from './foundation.bench.js';
import { closedLoop, type LoadResult } from './lib/load.js';

/** What a just-listed template reads: a listing, the agent and the brand (no remote photo: nothing leaves). */
const CONTEXT = {
  listing: {
    address: {
      street_address: '4521 Maple Ave',
      city: 'Dallas',
      state: 'TX',
      postal_code: '75219',
      full_address: '4521 Maple Ave, Dallas, TX 75219',
    },
    price: 450000,
    status: 'Active',
    bedroom_count: 4,
    full_bathroom_count: 3,
    square_meters: 260,
    description: 'Light-filled four-bedroom on a quiet, tree-lined street, minutes from the Katy Trail.',
  },
  user: {
    first_name: 'Dana',
    last_name: 'Reyes',
    display_name: 'Dana Reyes',
    email: 'dana@bench.example',
    phone_number: '+12145550100',
  },
  brand: { name: 'Bench Realty', palette: {} },
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function pageOf(medium: Medium): Promise<string> {
  const entry = TEMPLATE_LIBRARY.find((t) => t.medium === medium);
  if (!entry) throw new Error(`no library template for ${medium}`);
  return (await renderTemplate(libraryHtml(entry.key), CONTEXT)).html;
}

export async function benchPrint(
  deps: Deps,
  url: string,
  fixture: FoundationFixture,
  options: { campaigns: number; renders: number; requests: number },
): Promise<{ results: LoadResult[]; notes: string[] }> {
  const results: LoadResult[] = [];
  const notes: string[] = [];
  const renderer = deps.renderer;
  if (!renderer) {
    notes.push('print: no Chromium (CHROMIUM_PATH): render figures skipped');
  } else {
    await renderer.render(await pageOf('PostCard'), 'PostCard'); // starts the browser: not counted
    for (const medium of ['PostCard', 'Flyer', 'BusinessCard', 'InstagramStory'] as const) {
      const html = await pageOf(medium);
      const times: number[] = [];
      for (let i = 0; i < options.renders; i++) {
        const started = performance.now();
        await renderer.render(html, medium);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const seconds = times.reduce((a, b) => a + b, 0) / 1000;
      results.push({
        name: `render ${medium} (one at a time)`,
        requests: times.length,
        errors: 0,
        rps: times.length / seconds,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        p99: percentile(times, 99),
      });
    }
    // Throughput: as many postcards in flight as the render job's workers would start; the renderer pools them.
    const postcard = await pageOf('PostCard');
    const started = performance.now();
    await Promise.all(Array.from({ length: options.renders * 2 }, () => renderer.render(postcard, 'PostCard')));
    const perSecond = (options.renders * 2) / ((performance.now() - started) / 1000);
    notes.push(
      `print: ${options.renders * 2} postcards (PDF + PNG each) rendered all at once through the pooled browser: ${perSecond.toFixed(1)} postcards/s`,
    );
  }

  const brand = (
    await deps.db.selectFrom('memberships').select('brand').where('user', '=', fixture.userId).executeTakeFirstOrThrow()
  ).brand;
  await seedTemplateLibrary(deps);
  const templates = await deps.db.selectFrom('templates').select(['id', 'medium']).where('brand', 'is', null).execute();
  const started = performance.now();
  // Campaigns over instances of every medium, in bulk (the API path is measured by the tests, not here).
  for (let i = 0; i < options.campaigns; i += 1000) {
    const batch = Array.from(
      { length: Math.min(1000, options.campaigns - i) },
      (_, k) => templates[(i + k) % templates.length]!,
    );
    const at = new Date(Date.now() - (options.campaigns - i) * 1000);
    const instances = await deps.db
      .insertInto('template_instances')
      .values(
        batch.map((t) => ({
          template: t.id,
          brand,
          medium: t.medium,
          html: '<p>bench</p>',
          file: null,
          listings: [],
          contacts: [],
          deals: [],
          unknown_variables: [],
          render_status: 'html_only',
          render_note: null,
          created_by: fixture.userId,
          created_at: at,
          updated_at: at,
        })),
      )
      .returning('id')
      .execute();
    await deps.db
      .insertInto('print_campaigns')
      .values(
        instances.map((instance) => ({
          brand,
          created_by: fixture.userId,
          template_instance: instance.id,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
  }
  await sql`analyze template_instances, print_campaigns`.execute(deps.db);
  notes.push(`print: ${options.campaigns} campaigns written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const headers = { authorization: `Bearer ${fixture.accessToken}` };
  const paths = [
    `/brands/${brand}/print-campaigns?limit=50`,
    `/brands/${brand}/print-campaigns?limit=50&order=-updated_at&mediums[]=PostCard`,
    `/brands/${brand}/print-campaigns?limit=50&associations[]=print_campaign.template_instance`,
  ];
  const probe = await fetch(`${url}${paths[0]}`, { headers });
  if (!probe.ok) throw new Error(`GET print-campaigns answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`);
  results.push(
    await closedLoop(
      `GET /brands/:brand/print-campaigns (${options.campaigns} campaigns) [c=1]`,
      url,
      (i) => ({ method: 'GET', path: paths[i % paths.length]!, headers }),
      { concurrency: 1, requests: options.requests },
    ),
  );
  return { results, notes };
}
