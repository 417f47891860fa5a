// Hot reads as NAMED prepared statements: PostgreSQL parses and plans such a statement once per connection.
// For a query with joins or sub-selects the planning costs more than the execution, and a request that runs
// it on every call (bearer lookup, the user record) pays it every time unless the plan is kept.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './database.js';
import type { DB } from './types.js';

/**
 * Wraps a one-parameter Kysely query as a prepared statement. Kysely builds the text once, with `standIn` as
 * the parameter; each call swaps the real argument in (matched by identity) and runs the text through the pool
 * under `name`. pg parses the row as Kysely would (timestamptz → Date, json → object).
 */
export function preparedQuery<Arg, Row>(
  name: string,
  standIn: Arg,
  build: (db: Kysely<DB>, arg: Arg) => Compilable<Row>,
): (database: Pick<Database, 'db' | 'pool'>, arg: Arg) => Promise<Row | undefined> {
  let template: CompiledQuery | undefined;
  return async (database, arg) => {
    template ??= build(database.db, standIn).compile();
    const values = template.parameters.map((value) => (value === standIn ? arg : value));
    const result = await database.pool.query({ name, text: template.sql, values });
    return result.rows[0] as Row | undefined;
  };
}
