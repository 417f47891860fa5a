// `gable import populations`: Census-format CSV → population on the shipped states and counties, which search then
// ranks by. The figures below are synthetic test values (round numbers), not Census data: no registry package ships
// county populations, so the code ships none (docs/boundaries.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { seedShippedBoundaries } from './boundaries.loader.js';
import { applyPopulations, parsePopulationCsv } from './boundaries.populations.js';
import type { BoundaryRecord } from './boundaries.schemas.js';

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
  const counties = async (q: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/boundaries/search?q=${q}&boundary_type=county&omit[]=boundary.geometry`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: BoundaryRecord[] }).data.map((b) => `${b.title} (${b.state})`);
  };

  beforeAll(async () => {
    auth = bearer(await tokenFor(t.deps, (await createUser(t.deps)).id));
    await seedShippedBoundaries(t.deps.db, { stateFips: ['48', '19', '01'] });
  });

  it('reads the newest estimate of a Census file, by state and county FIPS', () => {
    const parsed = parsePopulationCsv(CENSUS_CSV);
    expect(parsed.problems).toEqual([]);
    expect(parsed.column).toBe('POPESTIMATE2023');
    expect(parsed.rows).toContainEqual({ externalId: 'us-state:48', population: 30_000_000 });
    expect(parsed.rows).toContainEqual({ externalId: 'us-county:48113', population: 2_600_000 });
    expect(parsed.rows).toContainEqual({ externalId: 'us-county:01045', population: 50_000 });
    expect(parsePopulationCsv(CENSUS_CSV, { column: 'POPESTIMATE2020' }).rows).toContainEqual({ externalId: 'us-county:48113', population: 2_500_000 });
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

  it('ranks Dallas County (TX) first for q=Dal once populations are loaded, and keeps them when the shipped data is seeded again', async () => {
    const before = await counties('Dal');
    expect(before[0]).not.toBe('Dallas County (Texas)'); // equal text rank, no population: alphabetical

    const { rows } = parsePopulationCsv(CENSUS_CSV);
    const first = await applyPopulations(t.deps.db, rows);
    expect(first).toEqual({ updated: 6, unmatched: ['us-county:01999'] });
    expect(await applyPopulations(t.deps.db, rows)).toEqual(first); // idempotent

    const after = await counties('Dal');
    expect(after.slice(0, 3)).toEqual(['Dallas County (Texas)', 'Dallas County (Iowa)', 'Dale County (Alabama)']);

    await seedShippedBoundaries(t.deps.db, { stateFips: ['48'] }); // `gable seed boundaries` again
    expect((await counties('Dal'))[0]).toBe('Dallas County (Texas)');
    const texas = await t.deps.db.selectFrom('boundaries').select('population').where('external_id', '=', 'us-state:48').executeTakeFirstOrThrow();
    expect(Number(texas.population)).toBe(30_000_000);
  });
});
