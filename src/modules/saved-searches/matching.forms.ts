// Match forms: each saved search's compiled WHERE, stored with the search (issue 12, matching speed; ADR 0034,
// docs/saved-searches.md "Matching"). The search engine compiles it (compileStoredSearch, the only code stating a
// criterion) when the search is written; a match job reads it with the search row instead of compiling thousands of
// searches per job in every new worker. It depends on the criteria alone: what a run reads from the database at
// compile time (the agents of named brands, the boxes of named boundaries, whether those still exist) is read by
// subqueries in the compiled WHERE, when it is evaluated. A form is the search's shape (its SQL text, stored once in
// saved_search_shapes under an id derived from the text) and its bind values.
//
// A stored form is used only when it was compiled by this engine (`match_version`, a fingerprint of the engine's
// output for reference criteria, so any change to how a criterion compiles retires every stored form) for the
// search as it is now (`match_for` = the search's `updated_at`: any write of the search retires it, whatever code
// wrote it). Otherwise the match job compiles it again and stores it after its transaction.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { SearchCriteria } from '../listings/search/search.schemas.js';
import { compileStoredSearch } from '../listings/index.js';
import { compileWhere } from './matching.confirm.js';
import { findShapes, insertShapes, storeMatchForms } from './matching.repository.js';
import { findStaleForms, storedCriteriaOf } from './saved-searches.repository.js';

/** Bump when the engine's compiled WHERE changes in a way the reference criteria below do not show. */
const FORM_VERSION = 1;

/** A search's compiled WHERE: its shape (text and id) and its values; null: the search cannot run (matches nothing). */
export interface MatchForm {
  shape: string;
  text: string;
  /** Positions of the values that are "now" (open houses): the shape's, filled with the job's time when matching. */
  nowParams: number[];
  values: (string | null)[];
}

/** "now" while compiling a form to store: the values at its positions are replaced by the job's time. */
const PLACEHOLDER_NOW = new Date(0);

/** The shape's id: the first 128 bits of the text's SHA-256, as a uuid. The text is the engine's (no user value). */
export function shapeId(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The match form of these criteria (with brands and boundaries), compiled by the search engine. */
export function matchFormOf(db: Kysely<DB>, criteria: SearchCriteria): MatchForm | null {
  let compiled;
  try {
    compiled = compileWhere(db, compileStoredSearch(criteria, PLACEHOLDER_NOW));
  } catch (error) {
    // A search that can no longer run (the run answers 400) matches nothing, as running it finds nothing.
    if (!(error instanceof AppError)) throw error;
    return null;
  }
  return {
    shape: shapeId(compiled.text),
    text: compiled.text,
    nowParams: compiled.nowParams,
    values: compiled.values.map((value, i) => (compiled.nowParams.includes(i) ? null : value)),
  };
}

/** Criteria drawing every criterion, so that a change to how any of them compiles changes the fingerprint. */
const REFERENCE: Required<{ [K in keyof SearchCriteria]: Exclude<SearchCriteria[K], null> }>[] = [true, false].map(
  (flag) => ({
    minimum_price: 100_000,
    maximum_price: 900_000,
    currency: 'usd',
    minimum_square_meters: 50,
    maximum_square_meters: 400,
    minimum_lot_square_meters: 100,
    maximum_lot_square_meters: 2000,
    minimum_bedrooms: 1,
    maximum_bedrooms: 5,
    minimum_bathrooms: 1.5,
    maximum_bathrooms: 4,
    minimum_year_built: 1950,
    maximum_year_built: 2020,
    minimum_parking_spaces: 1,
    property_types: ['Residential'],
    property_subtypes: ['Condo'],
    listing_statuses: ['Active'],
    points: [
      { latitude: 32.7, longitude: -96.8 },
      { latitude: 32.8, longitude: -96.8 },
      { latitude: 32.8, longitude: -96.7 },
      { latitude: 32.7, longitude: -96.8 },
    ],
    postal_codes: ['75201'],
    list_agents: ['A1'],
    selling_agents: ['A2'],
    agents: ['A3'],
    list_offices: ['O1'],
    selling_offices: ['O2'],
    offices: ['O3'],
    brands: ['00000000-0000-4000-8000-000000000001'],
    boundaries: ['00000000-0000-4000-8000-000000000002'],
    pool: flag,
    pets: !flag,
    application_fee: flag,
    appliances: !flag,
    furnished: flag,
    fenced_yard: !flag,
    office_exclusive: flag,
    number_of_pets_allowed: 1,
    open_house: flag,
    minimum_sold_date: 1_700_000_000,
    minimum_list_date: 1_600_000_000,
    maximum_list_date: 1_700_000_000,
    search: '"modern home" or pool -garden',
    content: ' lake view ',
    address: 'Main Street',
  }),
);

let version: string | undefined;

/** This engine's version of the forms: FORM_VERSION and a digest of what it compiles the reference criteria to. */
export function matchFormVersion(db: Kysely<DB>): string {
  if (version === undefined) {
    const output = JSON.stringify(REFERENCE.map((criteria) => matchFormOf(db, criteria)));
    version = `${FORM_VERSION}:${createHash('sha256').update(output).digest('hex').slice(0, 16)}`;
  }
  return version;
}

/** The columns a search write stores with the criteria (its `updated_at` being `at`); the shape is stored first. */
export async function matchFormColumns(db: Kysely<DB>, criteria: SearchCriteria, at: Date) {
  const form = matchFormOf(db, criteria);
  if (form) await storeShapes(db, [form]);
  return {
    match_shape: form?.shape ?? null,
    match_values: form ? JSON.stringify(form.values) : null,
    match_version: matchFormVersion(db),
    match_for: at,
  };
}

/** Shapes are content-addressed and never change: an id already stored is left alone. */
export async function storeShapes(db: Kysely<DB>, forms: readonly MatchForm[]): Promise<void> {
  const shapes = new Map(forms.map((form) => [form.shape, form]));
  if (shapes.size === 0) return;
  await insertShapes(
    db,
    [...shapes.values()].map((form) => ({ id: form.shape, text: form.text, nowParams: form.nowParams })),
  );
}

/** Shape texts by id, kept per process (an id always names the same text). */
const shapeCache = new Map<string, { text: string; nowParams: number[] }>();
const MAX_CACHED_SHAPES = 5000;

/** A shape the job compiled itself (perhaps not stored yet): known to this process from now on. Answers its id. */
export function rememberShape(form: MatchForm): string {
  if (!shapeCache.has(form.shape)) {
    if (shapeCache.size >= MAX_CACHED_SHAPES) shapeCache.clear();
    shapeCache.set(form.shape, { text: form.text, nowParams: form.nowParams });
  }
  return form.shape;
}

export async function shapesByIds(
  db: Kysely<DB>,
  ids: readonly string[],
): Promise<Map<string, { text: string; nowParams: number[] }>> {
  const found = new Map<string, { text: string; nowParams: number[] }>();
  for (const id of ids) {
    const cached = shapeCache.get(id);
    if (cached) found.set(id, cached);
  }
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  if (missing.length > 0) {
    const rows = await findShapes(db, missing);
    if (shapeCache.size + rows.length > MAX_CACHED_SHAPES) shapeCache.clear();
    for (const row of rows) {
      const shape = { text: row.text, nowParams: row.now_params };
      found.set(row.id, shape);
      shapeCache.set(row.id, shape);
    }
  }
  return found;
}

/** A search the match job compiled because its stored form was missing or retired, to store after the job. */
export interface CompiledForm {
  search: string;
  /** The search's updated_at as PostgreSQL's text, as read: the form is stored only if the search is unchanged. */
  updatedAt: string;
  form: MatchForm | null;
}

/**
 * Stores forms compiled by a match job (their shapes first), each only if its search was not written since it was
 * read and no newer form was stored meanwhile; a search another transaction holds is skipped, never waited for
 * (matching.repository.ts storeMatchForms).
 */
export async function storeCompiledForms(db: Kysely<DB>, compiled: readonly CompiledForm[]): Promise<void> {
  if (compiled.length === 0) return;
  const forms = compiled.flatMap((entry) => (entry.form ? [entry.form] : []));
  await storeShapes(db, forms);
  await storeMatchForms(
    db,
    compiled.map((entry) => ({
      search: entry.search,
      updatedAt: entry.updatedAt,
      shape: entry.form?.shape ?? null,
      values: entry.form ? JSON.stringify(entry.form.values) : null,
    })),
    matchFormVersion(db),
  );
}

/**
 * Compiles and stores the form of every live search whose form is missing or retired, `batch` at a time (after a
 * migration or an engine change; searches written through the API store theirs when written). Answers how many.
 */
export async function refreshMatchForms(db: Kysely<DB>, batch = 2000): Promise<number> {
  let done = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const stale = await findStaleForms(db, matchFormVersion(db), after, batch);
    if (stale.length === 0) return done;
    await storeCompiledForms(
      db,
      stale.map((row) => ({
        search: row.id,
        updatedAt: row.updated_at,
        form: matchFormOf(
          db,
          storedCriteriaOf({ criteria: row.criteria!, brands: row.brands!, boundaries: row.boundaries! }),
        ),
      })),
    );
    done += stale.length;
    after = stale[stale.length - 1]!.id;
  }
}
