// Confirming candidates set-based (issue 12, matching speed; docs/saved-searches.md "Matching"). Each candidate
// search is still judged by the search engine's own compiled WHERE, but searches whose WHERE has the same SQL text
// (the same shape: "polygon + maximum price + minimum bedrooms", …) differ only in their bind parameters, so one
// branch serves them all: the shape's text with each `$n` read from a row of a JSON array (one row per search, its
// values and its candidate listings). A batch of events is then one statement with one branch per shape, instead
// of one branch (planned on its own) per search — the bench spent most of a job planning those.
import type { Expression, Kysely, SqlBool } from 'kysely';
import { parameterText } from '../../db/arrays.js';
import type { DB } from '../../db/types.js';
import { whereClause } from '../listings/index.js';
import {
  findConfirmedPairs,
  preparedParameterTypes,
  type Candidate,
  type ShapeCandidates,
} from './matching.repository.js';

/** A search's compiled WHERE as the text of its shape and its bind values as text (cast back by the shape's types). */
export interface CompiledWhere {
  text: string;
  values: (string | null)[];
  /** Positions of the values that are times (the engine binds "now" for open houses, and no other time). */
  nowParams: number[];
}

/** A candidate search to confirm: its shape (text and "now" positions), its values as text, its candidate listings. */
export interface ShapedCandidate {
  search: string;
  text: string;
  nowParams: number[];
  values: (string | null)[];
  listings: string[];
}

/**
 * The parameter types PostgreSQL infers for a shape (matching.repository.ts preparedParameterTypes), so each value
 * read from JSON text is cast to exactly the type the engine's own statement would bind it as. Cached per process: a
 * shape's text names only columns and operators, whose types do not change while it runs.
 */
const shapeTypes = new Map<string, string[]>();
const MAX_CACHED_SHAPES = 2000;

async function parameterTypes(db: Kysely<DB>, text: string): Promise<string[]> {
  const cached = shapeTypes.get(text);
  if (cached) return cached;
  const types = await preparedParameterTypes(db, text);
  if (shapeTypes.size >= MAX_CACHED_SHAPES) shapeTypes.clear();
  shapeTypes.set(text, types);
  return types;
}

/** The engine's predicates as one shape text and its values. */
export function compileWhere(db: Kysely<DB>, where: Expression<SqlBool>[]): CompiledWhere {
  const compiled = whereClause(where).compile(db);
  const nowParams = compiled.parameters.flatMap((value, i) => (value instanceof Date ? [i] : []));
  return { text: compiled.sql, values: compiled.parameters.map(parameterText), nowParams };
}

/**
 * The confirmed (search, listing) pairs of these compiled candidates, confirmed by one query (none without
 * candidates): the candidates grouped by shape, one `union all` branch per shape (matching.repository.ts
 * findConfirmedPairs), each position of a shape's values typed as the engine's statement binds it. "now" (open
 * houses) is `now`, the job's time, as a run now would bind it.
 */
export async function confirmedPairs(
  db: Kysely<DB>,
  candidates: readonly ShapedCandidate[],
  now: Date,
): Promise<Candidate[]> {
  const shapes = new Map<
    string,
    { nowParams: number[]; searches: string[]; listings: string[]; columns: (string | null)[][] }
  >();
  for (const candidate of candidates) {
    let shape = shapes.get(candidate.text);
    if (!shape) {
      shape = { nowParams: candidate.nowParams, searches: [], listings: [], columns: candidate.values.map(() => []) };
      shapes.set(candidate.text, shape);
    }
    for (const listing of candidate.listings) {
      shape.searches.push(candidate.search);
      shape.listings.push(listing);
      for (let i = 0; i < candidate.values.length; i++) shape.columns[i]!.push(candidate.values[i]!);
    }
  }
  const typed: ShapeCandidates[] = [];
  for (const [text, shape] of shapes) typed.push({ text, types: await parameterTypes(db, text), ...shape });
  return await findConfirmedPairs(db, typed, now);
}
