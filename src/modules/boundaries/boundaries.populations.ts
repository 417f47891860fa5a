// Populations of the US states and counties, which search ranks equally relevant matches by. Shipped: the Census
// Bureau's Vintage 2019 county estimates (census/us-county-population-2019.csv, public domain), states summed from
// their counties, applied by `gable seed boundaries` and the first start. Imported: the Census Bureau's county
// estimates file of any vintage ("co-est<vintage>-alldata.csv": SUMLEV, STATE, COUNTY, POPESTIMATE<year>…), or any
// CSV with a `fips` (or `GEOID`) column and a `population` column (docs/boundaries.md).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { hasBoundaryWithoutPopulation, setBoundaryPopulations } from './boundaries.repository.js';

export interface PopulationRow {
  externalId: string;
  population: number;
}

export interface ParsedPopulations {
  rows: PopulationRow[];
  /** `line N: reason`; any problem means nothing is applied. */
  problems: string[];
  /** The column the figures came from. */
  column: string | null;
}

const MAX_POPULATION = 2_000_000_000;

/** One CSV line split into fields (RFC 4180 quotes; no line breaks inside fields, which these files do not have). */
function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields.map((value) => value.trim());
}

export function parsePopulationCsv(text: string, options: { column?: string } = {}): ParsedPopulations {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = splitCsvLine(lines[0] ?? '');
  const find = (...names: string[]) =>
    header.findIndex((name) => names.some((wanted) => name.toLowerCase() === wanted.toLowerCase()));
  const problems: string[] = [];

  const census = find('STATE') >= 0 && find('COUNTY') >= 0;
  const fipsIndex = find('fips', 'GEOID');
  let column = options.column ?? null;
  if (!column) {
    // The newest estimate of a Census file (POPESTIMATE2023 over POPESTIMATE2020), else `population`.
    const estimates = header.filter((name) => /^POPESTIMATE\d{4}$/i.test(name)).sort();
    column = estimates.at(-1) ?? (find('population') >= 0 ? header[find('population')]! : null);
  }
  const valueIndex = column === null ? -1 : find(column);
  if (valueIndex < 0)
    problems.push(
      `line 1: no population column${options.column ? ` named ${options.column}` : ' (POPESTIMATE<year> or population)'}`,
    );
  if (!census && fipsIndex < 0) problems.push('line 1: no FIPS columns (STATE and COUNTY, or fips / GEOID)');
  if (problems.length > 0) return { rows: [], problems, column };

  const rows: PopulationRow[] = [];
  const seen = new Set<string>();
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === '') continue;
    const fields = splitCsvLine(line);
    const at = `line ${index + 1}`;
    let fips: string;
    if (census) {
      const state = fields[find('STATE')] ?? '';
      const county = fields[find('COUNTY')] ?? '';
      if (!/^\d{1,2}$/.test(state) || !/^\d{1,3}$/.test(county)) {
        problems.push(`${at}: STATE and COUNTY must be FIPS numbers`);
        continue;
      }
      fips = Number(county) === 0 ? state.padStart(2, '0') : state.padStart(2, '0') + county.padStart(3, '0');
    } else {
      fips = fields[fipsIndex] ?? '';
      if (!/^(\d{2}|\d{5})$/.test(fips)) {
        problems.push(`${at}: fips must be 2 (state) or 5 (county) digits`);
        continue;
      }
    }
    const raw = fields[valueIndex] ?? '';
    const population = Number(raw);
    if (!/^\d+$/.test(raw) || population > MAX_POPULATION) {
      problems.push(`${at}: ${column} must be a whole number of people (got "${raw.slice(0, 20)}")`);
      continue;
    }
    const externalId = fips.length === 2 ? `us-state:${fips}` : `us-county:${fips}`;
    if (seen.has(externalId)) {
      problems.push(`${at}: FIPS ${fips} appears twice`);
      continue;
    }
    seen.add(externalId);
    rows.push({ externalId, population });
  }
  if (rows.length === 0 && problems.length === 0) problems.push('no rows');
  return { rows, problems, column };
}

const SHIPPED_FILE = new URL('./census/us-county-population-2019.csv', import.meta.url);

/**
 * The shipped figures (U.S. Census Bureau, Vintage 2019 county population estimates, public domain) with every
 * state as the sum of its counties. Throws on a malformed file: the file ships with the code.
 */
export function shippedPopulations(): PopulationRow[] {
  const { rows, problems } = parsePopulationCsv(readFileSync(SHIPPED_FILE, 'utf8'));
  if (problems.length > 0) throw new Error(`${fileURLToPath(SHIPPED_FILE)}: ${problems.join('; ')}`);
  return withStateTotals(rows);
}

/** Adds, for each state the rows give no figure of its own, the sum of its counties (counties partition a state). */
export function withStateTotals(rows: readonly PopulationRow[]): PopulationRow[] {
  const given = new Set(rows.map((row) => row.externalId));
  const totals = new Map<string, number>();
  for (const row of rows) {
    const state = /^us-county:(\d{2})\d{3}$/.exec(row.externalId)?.[1];
    if (state && !given.has(`us-state:${state}`)) totals.set(state, (totals.get(state) ?? 0) + row.population);
  }
  return [...rows, ...[...totals].map(([state, population]) => ({ externalId: `us-state:${state}`, population }))];
}

const ROWS_PER_STATEMENT = 500;

/** Sets the populations of the rows that exist (idempotent); answers how many matched and which ids did not. */
export async function applyPopulations(
  db: Kysely<DB>,
  rows: readonly PopulationRow[],
): Promise<{ updated: number; unmatched: string[] }> {
  return db.transaction().execute(async (trx) => {
    const matched = await setPopulations(trx, rows, { onlyUnknown: false });
    return {
      updated: matched.size,
      unmatched: rows.filter((row) => !matched.has(row.externalId)).map((row) => row.externalId),
    };
  });
}

/**
 * Sets the populations of the rows that exist, in the caller's transaction; with `onlyUnknown`, only where none is
 * known yet (the shipped figures never replace imported ones). Answers the external ids it set.
 */
export async function setPopulations(
  db: Kysely<DB>,
  rows: readonly PopulationRow[],
  options: { onlyUnknown: boolean },
): Promise<Set<string>> {
  const set = new Set<string>();
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const batch = rows.slice(i, i + ROWS_PER_STATEMENT);
    const ids = batch.map((row) => row.externalId);
    const populations = batch.map((row) => row.population);
    for (const externalId of await setBoundaryPopulations(db, ids, populations, options)) set.add(externalId);
  }
  return set;
}

/** Whether a live boundary among these external ids has no population yet. */
export async function lacksPopulation(db: Kysely<DB>, externalIds: readonly string[]): Promise<boolean> {
  return hasBoundaryWithoutPopulation(db, externalIds);
}
