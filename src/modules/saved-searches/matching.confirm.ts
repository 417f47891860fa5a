// Confirming candidates set-based (issue 12, matching speed; docs/saved-searches.md "Matching"). Each candidate
// search is still judged by the search engine's own compiled WHERE, but searches whose WHERE has the same SQL text
// (the same shape: "polygon + maximum price + minimum bedrooms", …) differ only in their bind parameters, so one
// branch serves them all: the shape's text with each `$n` read from a row of a JSON array (one row per search, its
// values and its candidate listings). A batch of events is then one statement with one branch per shape, instead
// of one branch (planned on its own) per search — the bench spent most of a job planning those.
import { randomBytes } from 'node:crypto';
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { parameterText, unnestColumns } from '../../db/arrays.js';
import type { DB } from '../../db/types.js';
import { whereClause } from '../listings/search/search.query.js';
import type { Candidate } from './matching.candidates.js';

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
 * The parameter types PostgreSQL infers for a shape (`PREPARE` answers them in pg_prepared_statements), so each
 * value read from JSON text is cast to exactly the type the engine's own statement would bind it as. Cached per
 * process: a shape's text names only columns and operators, whose types do not change while it runs.
 */
const shapeTypes = new Map<string, string[]>();
const MAX_CACHED_SHAPES = 2000;

async function parameterTypes(db: Kysely<DB>, text: string): Promise<string[]> {
  const cached = shapeTypes.get(text);
  if (cached) return cached;
  // A name of its own per call: a statement left behind by a transaction that failed in between cannot collide.
  const name = `gable_shape_${randomBytes(8).toString('hex')}`;
  // The text is the engine's compiled SQL: column names, operators and literals it wrote; every value is a `$n`.
  await sql.raw(`prepare ${name} as select 1 from listings as l where ${text}`).execute(db);
  try {
    const { rows } = await sql<{
      types: string[];
    }>`select parameter_types::text[] as types from pg_prepared_statements where name = ${name}`.execute(db);
    const types = rows[0]!.types;
    if (shapeTypes.size >= MAX_CACHED_SHAPES) shapeTypes.clear();
    shapeTypes.set(text, types);
    return types;
  } finally {
    await sql.raw(`deallocate ${name}`).execute(db);
  }
}

/** The engine's predicates as one shape text and its values. */
export function compileWhere(db: Kysely<DB>, where: Expression<SqlBool>[]): CompiledWhere {
  const compiled = whereClause(where).compile(db);
  const nowParams = compiled.parameters.flatMap((value, i) => (value instanceof Date ? [i] : []));
  return { text: compiled.sql, values: compiled.parameters.map(parameterText), nowParams };
}

/**
 * The confirmed (search, listing) pairs of these compiled candidates as one query (null when there are none): one
 * `union all` branch per shape. A branch reads one row per (search, candidate listing) from arrays, one array per
 * bind position of the shape, typed as the engine's statement binds that position, so PostgreSQL parses each value
 * once, as it would a bind parameter (an array-typed position travels as the text of its array and is cast per
 * row). "now" (open houses) is `now`, the job's time, as a run now would bind it.
 */
export async function confirmedPairs(
  db: Kysely<DB>,
  candidates: readonly ShapedCandidate[],
  now: Date,
): Promise<RawBuilder<Candidate> | null> {
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
  const branches: RawBuilder<Candidate>[] = [];
  for (const [text, shape] of shapes) {
    const types = await parameterTypes(db, text);
    const bound = types.flatMap((type, i) => (shape.nowParams.includes(i) ? [] : [i]));
    const rows = unnestColumns(
      [
        { name: 's', type: 'uuid', texts: shape.searches },
        { name: 'l', type: 'uuid', texts: shape.listings },
        ...bound.map((i) => ({ name: `p${i}`, type: types[i]!, texts: shape.columns[i]! })),
        // not `r`: the engine's SQL names its own sub-selects so (boundary rings)
      ],
      'candidate',
    );
    // `$n` → the row's value of position n-1, or the job's time for "now".
    const predicate = text.split(/\$(\d+)/).map((piece, i) => {
      if (i % 2 === 0) return sql.raw(piece);
      const position = Number(piece) - 1;
      return shape.nowParams.includes(position)
        ? sql`(${now.toISOString()}::${sql.raw(types[position]!)})`
        : rows.column(`p${position}`);
    });
    // Each candidate listing is read by primary key, then tested: `offset 0` keeps the predicate out of that lookup.
    // Without it the planner pushed the polygon (or agent) test into the scan and walked the listings index for
    // every search's whole area (~370 listings each on the bench) to keep one or two of them.
    branches.push(sql<Candidate>`select candidate.s as saved_search, l.id as listing
      from ${rows.from}
      cross join lateral (select * from listings where id = candidate.l offset 0) as l
      where ${sql.join(predicate, sql``)}`);
  }
  return branches.length === 0 ? null : sql<Candidate>`${sql.join(branches, sql` union all `)}`;
}
