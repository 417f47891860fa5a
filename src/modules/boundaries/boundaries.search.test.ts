// GET /boundaries/search and GET /boundaries/:id over the shipped countries plus Texas and Iowa with their counties.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { loadBoundaries, seedShippedBoundaries } from './boundaries.loader.js';
import type { BoundaryRecord } from './boundaries.schemas.js';

type Page = { code: string; data: BoundaryRecord[]; info: { count: number; total: number } };

describe('boundaries search', () => {
  const t = useTestApp();
  let auth: Record<string, string>;
  const search = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/boundaries/search?${query}`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };

  beforeAll(async () => {
    auth = bearer(await tokenFor(t.deps, (await createUser(t.deps)).id));
    await seedShippedBoundaries(t.deps.db, { stateFips: ['48', '19'] });
    // Two cities with populations, to prove population breaks ties in text rank.
    const square = (x: number, y: number) => ({
      type: 'Polygon' as const,
      coordinates: [
        [
          [x, y],
          [x + 0.1, y],
          [x + 0.1, y + 0.1],
          [x, y + 0.1],
          [x, y],
        ],
      ],
    });
    const city = (id: string, title: string, population: number, x: number) => ({
      externalId: `city:${id}`,
      boundaryType: 'city' as const,
      title,
      country: 'US',
      state: 'Texas',
      subtitle: 'Texas, US',
      aliases: [],
      codes: [id],
      population,
      geometry: square(x, 30),
    });
    await loadBoundaries(t.deps.db, [
      city('1', 'Springfield Small', 1_000, -97),
      city('2', 'Springfield Large', 900_000, -98),
    ]);
  });

  it('needs a bearer token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/boundaries/search?q=Dal' });
    expect(res.statusCode).toBe(401);
  });

  // Issue 34 row 12 asked that a result carry the documented fields only. Spec 2.8 documents each key below,
  // `searchable` (the text-search vector) among them, so it stays: existing clients may read it. deleted_at is
  // spec §1 convention 6. Nothing else may leak from the row (a rank, the search arrays, the id of the import).
  it('answers each result with exactly the fields of spec 2.8 (and deleted_at)', async () => {
    const page = await search('q=Dal');
    expect(page.data.length).toBeGreaterThan(0);
    const documented = [
      'id',
      'external_id',
      'boundary_type',
      'title',
      'country',
      'state',
      'geometry',
      'center',
      'created_at',
      'updated_at',
      'aliases',
      'population',
      'searchable',
      'overridden_title',
      'subtitle',
      'type',
      'deleted_at',
    ].sort();
    for (const record of page.data) expect(Object.keys(record).sort()).toEqual(documented);
    expect(page.data[0]!.searchable).toMatch(/'dallas':\d+A/);
  });

  it('matches titles by word prefix, case-insensitively', async () => {
    const page = await search('q=dal&omit[]=boundary.geometry');
    const titles = page.data.map((b) => `${b.title} (${b.state})`);
    expect(titles).toContain('Dallas County (Texas)');
    expect(titles).toContain('Dallas County (Iowa)');
    expect(titles).toContain('Dallam County (Texas)');
    for (const b of page.data) expect(b.title.toLowerCase()).toMatch(/(^|[^a-z])dal/);
  });

  it('matches codes and aliases: TX → Texas, US → United States, USA, 48113', async () => {
    expect((await search('q=TX')).data[0]).toMatchObject({
      title: 'Texas',
      boundary_type: 'state',
      country: 'US',
      subtitle: 'US',
      aliases: 'TX',
    });
    expect((await search('q=US')).data[0]).toMatchObject({
      title: 'United States',
      boundary_type: 'country',
      country: 'US',
      subtitle: 'North America',
    });
    expect((await search('q=usa')).data[0]?.title).toBe('United States');
    expect((await search('q=48113')).data[0]).toMatchObject({
      title: 'Dallas County',
      state: 'Texas',
      subtitle: 'Texas, US',
    });
  });

  it('answers nothing for a q without letters or digits', async () => {
    expect((await search('q=%27%21%20-')).info).toEqual({ count: 0, total: 0 });
  });

  it('is documented in OpenAPI', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { tags: string[] }>>;
    };
    expect(spec.paths['/boundaries/search']?.get?.tags).toEqual(['Boundaries']);
    expect(spec.paths['/boundaries/{id}']?.get?.tags).toEqual(['Boundaries']);
  });

  it('is accent-insensitive', async () => {
    const page = await search('q=cote%20d');
    expect(page.data.map((b) => b.title)).toContain("Côte d'Ivoire");
  });

  it('ranks an exact title above a prefix, then by population', async () => {
    expect((await search('q=Texas')).data[0]?.title).toBe('Texas');
    expect((await search('q=springfield')).data.map((b) => b.title)).toEqual([
      'Springfield Large',
      'Springfield Small',
    ]);
  });

  it('filters by boundary_type, country and state', async () => {
    const counties = await search('boundary_type=county&state=texas&limit=1000&omit[]=boundary.geometry');
    expect(counties.info.total).toBe(254);
    expect(counties.data.every((b) => b.boundary_type === 'county' && b.state === 'Texas')).toBe(true);
    const states = await search('boundary_type=state&country=us');
    expect(states.data.map((b) => b.title).sort()).toEqual(['Iowa', 'Texas']);
    const french = await search('boundary_type=country&country=FR');
    expect(french.data.map((b) => b.title)).toEqual(['France']);
    expect(french.data[0]).toMatchObject({ country: 'FR', state: '' }); // spec 2.8: strings, "" for none
  });

  it('answers 400, not 500, for a NUL character in a filter', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/boundaries/search?q=Dal&state=%00x', headers: auth });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BadRequest', message: expect.stringContaining('NUL') });
  });

  it('pages with start/limit and an exact total', async () => {
    const all = await search('q=c&limit=1000&omit[]=boundary.geometry');
    expect(all.info.total).toBe(all.data.length);
    expect(all.info.total).toBeGreaterThan(20);
    const first = await search('q=c&limit=10&omit[]=boundary.geometry');
    const second = await search('q=c&limit=10&start=10&omit[]=boundary.geometry');
    expect(first.info).toEqual({ count: 10, total: all.info.total });
    expect(second.data.map((b) => b.id)).toEqual(all.data.slice(10, 20).map((b) => b.id));
    const past = await search(`q=c&start=${all.info.total + 5}`);
    expect(past.info).toEqual({ count: 0, total: all.info.total });
  });

  it('defaults to 50 and rejects a limit above 1000', async () => {
    expect((await search('omit[]=boundary.geometry')).info.count).toBe(50);
    const res = await t.app.inject({ method: 'GET', url: '/boundaries/search?limit=1001', headers: auth });
    expect(res.statusCode).toBe(400);
  });

  it('returns geometry in results unless omitted', async () => {
    const withGeometry = await search('q=TX&limit=1');
    expect(withGeometry.data[0]?.geometry?.type).toMatch(/Polygon/);
    const without = await search('q=TX&limit=1&omit[]=boundary.geometry');
    expect(without.data[0]).not.toHaveProperty('geometry');
    expect(without.data[0]).toMatchObject({ type: 'boundary', center: { type: 'Point' } });
  });

  it('GET /boundaries/:id returns the full closed GeoJSON and a center inside it', async () => {
    const [dallas] = (await search('q=48113')).data;
    const res = await t.app.inject({ method: 'GET', url: `/boundaries/${dallas!.id}`, headers: auth });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: BoundaryRecord };
    expect(body.data).toMatchObject({
      type: 'boundary',
      id: dallas!.id,
      external_id: 'us-county:48113',
      deleted_at: null,
    });
    expect(typeof body.data.created_at).toBe('number');
    const geometry = body.data.geometry!;
    const rings = geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat();
    for (const ring of rings) expect(ring[0]).toEqual(ring[ring.length - 1]);
    const [lon, lat] = body.data.center.coordinates;
    expect(lon).toBeGreaterThan(-97.1);
    expect(lon).toBeLessThan(-96.5);
    expect(lat).toBeGreaterThan(32.5);
    expect(lat).toBeLessThan(33.0);
  });

  it('answers 404 for an unknown or deleted id and 400 for a malformed one', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/boundaries/00000000-0000-4000-8000-000000000000',
      headers: auth,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'ResourceNotFound' });
    const malformed = await t.app.inject({ method: 'GET', url: '/boundaries/not-a-uuid', headers: auth });
    expect(malformed.statusCode).toBe(400);
    const [small] = (await search('q=springfield%20small')).data;
    await t.deps.db.updateTable('boundaries').set({ deleted_at: new Date() }).where('id', '=', small!.id).execute();
    const deleted = await t.app.inject({ method: 'GET', url: `/boundaries/${small!.id}`, headers: auth });
    expect(deleted.statusCode).toBe(404);
    expect((await search('q=springfield')).data.map((b) => b.title)).toEqual(['Springfield Large']);
  });
});
