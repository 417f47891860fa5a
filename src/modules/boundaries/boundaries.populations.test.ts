// Populations of US states and counties, which search ranks by: the shipped Census Bureau Vintage 2019 county
// estimates (states summed from their counties), applied by the boundary seed, and `gable import populations` for
// newer vintages. CENSUS_CSV holds synthetic round numbers in the Census file's format, not Census data.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { seedShippedBoundaries } from './boundaries.loader.js';
import { applyPopulations, parsePopulationCsv, shippedPopulations, withStateTotals } from './boundaries.populations.js';
import type { BoundaryRecord } from './boundaries.schemas.js';
import { shippedBoundaries } from './boundaries.shipped.js';

// The header of the Census Bureau's co-est<vintage>-alldata.csv (first columns); Latin-1 names, quoted or not.
const CENSUS_CSV = [
  'SUMLEV,REGION,DIVISION,STATE,COUNTY,STNAME,CTYNAME,ESTIMATESBASE2020,POPESTIMATE2020,POPESTIMATE2023',
  '040,3,7,48,000,Texas,Texas,29000000,29000000,30000000',
  '050,3,7,48,113,Texas,Dallas County,2500000,2500000,2600000',
  '050,3,7,48,111,Texas,Dallam County,7000,7000,7000',
  '050,2,4,19,049,Iowa,"Dallas County",90000,90000,100000',
  '050,3,6,01,045,Alabama,Dale County,50000,50000,50000',
  '050,3,6,01,047,Alabama,Dallas County,40000,40000,40000',
  '050,3,6,01,999,Alabama,Nowhere County,1,1,1',
].join('\r\n');

describe('county populations', () => {
  const t = useTestApp();
  let auth: Record<string, string>;
  const titles = async (query: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/boundaries/search?${query}&omit[]=boundary.geometry`,
      headers: auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: BoundaryRecord[] }).data.map((b) => `${b.title} (${b.state || b.boundary_type})`);
  };
  const population = async (externalId: string) => {
    const row = await t.deps.db
      .selectFrom('boundaries')
      .select('population')
      .where('external_id', '=', externalId)
      .executeTakeFirstOrThrow();
    return row.population === null ? null : Number(row.population);
  };

  beforeAll(async () => {
    auth = bearer(await tokenFor(t.deps, (await createUser(t.deps)).id));
    await seedShippedBoundaries(t.deps.db, { stateFips: ['48', '19', '01'] }); // what `gable seed boundaries` does
  });

  it('ships a well-formed file of every county of the 50 states and DC, with states summed from their counties', () => {
    const parsed = parsePopulationCsv(
      readFileSync(new URL('./census/us-county-population-2019.csv', import.meta.url), 'utf8'),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.column).toBe('population');
    const counties = parsed.rows.filter((row) => row.externalId.startsWith('us-county:'));
    expect(counties).toHaveLength(parsed.rows.length); // no state rows: the code sums them
    expect(counties.length).toBeGreaterThanOrEqual(3100);
    expect(new Set(counties.map((row) => row.externalId.slice('us-county:'.length, -3))).size).toBe(51);

    const shipped = new Map(shippedPopulations().map((row) => [row.externalId, row.population]));
    expect(shipped.get('us-county:01001')).toBe(55_869); // Autauga County, AL
    expect(shipped.get('us-county:01045')).toBe(49_172); // Dale County, AL
    expect(shipped.get('us-county:06037')).toBe(10_039_107); // Los Angeles County, CA
    expect(shipped.get('us-county:17031')).toBe(5_150_233); // Cook County, IL
    expect(shipped.get('us-county:48113')).toBe(2_635_516); // Dallas County, TX
    const countiesOf = (state: string) => counties.filter((row) => row.externalId.startsWith(`us-county:${state}`));
    for (const state of ['01', '02', '06', '48', '53']) {
      expect(shipped.get(`us-state:${state}`)).toBe(countiesOf(state).reduce((sum, row) => sum + row.population, 0));
    }
    // The state rows of the Census file, which its county rows add up to.
    expect(shipped.get('us-state:01')).toBe(4_903_185);
    expect(shipped.get('us-state:53')).toBe(7_614_893);
    const states = [...shipped].filter(([id]) => id.startsWith('us-state:'));
    expect(states).toHaveLength(51);
    expect(states.reduce((sum, [, people]) => sum + people, 0)).toBe(328_239_523); // the US, July 1, 2019
  });

  it('has a figure for every shipped US state and county but the territories, and none for a boundary not shipped', () => {
    const figures = new Set(shippedPopulations().map((row) => row.externalId));
    const us = new Set(shippedBoundaries({ countries: false }).map((b) => b.externalId));
    const without = [...us].filter((id) => !figures.has(id));
    // American Samoa, Guam, the Northern Mariana Islands, Puerto Rico, the US Virgin Islands: not in the Census file.
    expect(new Set(without.map((id) => id.split(':')[1]!.slice(0, 2)))).toEqual(
      new Set(['60', '66', '69', '72', '78']),
    );
    expect([...figures].filter((id) => !us.has(id))).toEqual([]);
  });

  it('sums only the states the rows give no figure of their own', () => {
    const rows = [
      { externalId: 'us-county:48113', population: 5 },
      { externalId: 'us-state:48', population: 100 },
      { externalId: 'us-county:19049', population: 7 },
      { externalId: 'us-county:19153', population: 8 },
    ];
    expect(withStateTotals(rows)).toEqual([...rows, { externalId: 'us-state:19', population: 15 }]);
  });

  it('after the seed, q=Dal lists Dallas County (Texas) first, then by population', async () => {
    const all = await titles('q=Dal');
    expect(all[0]).toBe('Dallas County (Texas)');
    expect(all.indexOf('Dallas County (Texas)')).toBeLessThan(all.indexOf('Dale County (Alabama)'));
    expect(await titles('q=Dal&boundary_type=county')).toEqual([
      'Dallas County (Texas)', // 2,635,516
      'Dallas County (Iowa)', // 93,453
      'Dale County (Alabama)', // 49,172
      'Dallas County (Alabama)', // 37,196
      'Dallam County (Texas)', // 7,287
    ]);
    expect(await population('us-county:48113')).toBe(2_635_516);
    expect(await population('us-state:48')).toBe(28_995_881);
    expect(await population('country:840')).toBeNull(); // countries: no figure shipped
  });

  it('reads the newest estimate of a Census file, by state and county FIPS', () => {
    const parsed = parsePopulationCsv(CENSUS_CSV);
    expect(parsed.problems).toEqual([]);
    expect(parsed.column).toBe('POPESTIMATE2023');
    expect(parsed.rows).toContainEqual({ externalId: 'us-state:48', population: 30_000_000 });
    expect(parsed.rows).toContainEqual({ externalId: 'us-county:48113', population: 2_600_000 });
    expect(parsed.rows).toContainEqual({ externalId: 'us-county:01045', population: 50_000 });
    expect(parsePopulationCsv(CENSUS_CSV, { column: 'POPESTIMATE2020' }).rows).toContainEqual({
      externalId: 'us-county:48113',
      population: 2_500_000,
    });
    expect(parsePopulationCsv('fips,population\n48113,12\n19,34\n').rows).toEqual([
      { externalId: 'us-county:48113', population: 12 },
      { externalId: 'us-state:19', population: 34 },
    ]);
  });

  it('refuses a file with any bad row, naming the lines', () => {
    const parsed = parsePopulationCsv('fips,population\n48113,12\n4811,3\n48111,-5\n48113,7\n');
    expect(parsed.problems).toEqual([
      'line 3: fips must be 2 (state) or 5 (county) digits',
      'line 4: population must be a whole number of people (got "-5")',
      'line 5: FIPS 48113 appears twice',
    ]);
    expect(parsePopulationCsv('name,value\nx,1\n').problems[0]).toMatch(/^line 1: no population column/);
  });

  it('seeds idempotently; an imported newer vintage replaces the shipped figures and survives seeding again', async () => {
    expect(await seedShippedBoundaries(t.deps.db, { stateFips: ['48'] })).toEqual({
      boundaries: expect.any(Number),
      populationsSet: 0,
    });
    expect(await population('us-county:48113')).toBe(2_635_516);

    const { rows } = parsePopulationCsv(CENSUS_CSV);
    const first = await applyPopulations(t.deps.db, rows);
    expect(first).toEqual({ updated: 6, unmatched: ['us-county:01999'] });
    expect(await applyPopulations(t.deps.db, rows)).toEqual(first); // idempotent
    expect(await population('us-county:48113')).toBe(2_600_000);

    await seedShippedBoundaries(t.deps.db, { stateFips: ['48'] }); // `gable seed boundaries` again
    expect(await population('us-county:48113')).toBe(2_600_000);
    expect(await population('us-state:48')).toBe(30_000_000);
    expect(await population('us-county:48001')).toBe(57_735); // Anderson County: not in the import, shipped figure kept
    expect((await titles('q=Dal&boundary_type=county')).slice(0, 3)).toEqual([
      'Dallas County (Texas)',
      'Dallas County (Iowa)',
      'Dale County (Alabama)',
    ]);
  });
});
