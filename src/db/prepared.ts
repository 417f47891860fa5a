// Hot reads as NAMED prepared statements: PostgreSQL parses and plans such a statement once per connection.
// For a query with joins or sub-selects the planning costs more than the execution, and a request that runs
// it on every call (bearer lookup, the user record) pays it every time unless the plan is kept.
import type { Compilable, CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { Database } from './database.js';
import type { DB } from './types.js';

/**
 * Wraps a Kysely query (or a raw `sql` statement) as a prepared statement. Kysely builds the text once, with
 * `standIns` as the arguments; each call swaps the real arguments in (each matched by identity with its stand-in,
 * so stand-ins must be distinct values no caller passes, and no constant of the query). A stand-in that is a plain
 * object stands for its fields: each field is matched with the same field of the real argument (a part of the
 * statement built from several values, as an attempt claim). The text runs on a pooled connection under `name`.
 * pg parses the rows as Kysely would (timestamptz → Date, json → object). Answers every row.
 */
export function preparedRows<Args extends readonly unknown[], Row>(
  name: string,
  standIns: Args,
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row> | RawBuilder<Row>,
): (database: PooledDatabase, ...args: Args) => Promise<Row[]> {
  return prepared(name, standIns, build, (rows) => rows);
}

/** `preparedRows` for a query of one row (or none). */
export function preparedQuery<Args extends readonly unknown[], Row>(
  name: string,
  standIns: Args,
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row> | RawBuilder<Row>,
): (database: PooledDatabase, ...args: Args) => Promise<Row | undefined> {
  return prepared(name, standIns, build, (rows) => rows[0]);
}

function prepared<Args extends readonly unknown[], Row, Answer>(
  name: string,
  standIns: Args,
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row> | RawBuilder<Row>,
  pick: (rows: Row[]) => Answer,
): (database: PooledDatabase, ...args: Args) => Promise<Answer> {
  let template: CompiledQuery | undefined;
  // Where each stand-in's real value is: an argument, or a field of one. Built once.
  const slots = new Map<unknown, { at: number; field?: string }>();
  standIns.forEach((standIn, at) => {
    if (!isFields(standIn)) slots.set(standIn, { at });
    else for (const field in standIn) slots.set(standIn[field], { at, field });
  });
  // Not async, and one `then`: every promise on a request's path costs it a hook call (lib/work-context.ts).
  return (database, ...args) => {
    let values: unknown[];
    try {
      template ??= compile(database.db, build(database.db, ...standIns));
      values = template.parameters.map((value) => {
        const slot = slots.get(value);
        if (!slot) return value;
        const arg = args[slot.at];
        return slot.field === undefined ? arg : (arg as Record<string, unknown>)[slot.field];
      });
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return database.query({ name, text: template.sql, values }).then((result) => pick(result.rows as Row[]));
  };
}

function compile<Row>(db: Kysely<DB>, query: Compilable<Row> | RawBuilder<Row>): CompiledQuery {
  return 'isRawBuilder' in query ? query.compile(db) : query.compile();
}

function isFields(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** A statement with the name it is prepared under, for a caller to run on its own or inside another statement. */
export interface NamedStatement {
  name: string;
  statement: RawBuilder<unknown>;
}

/** The pool, where named prepared statements run. */
export type PooledDatabase = Pick<Database, 'db' | 'query'>;

/** Where a statement runs: the pool (as a named prepared statement) or a transaction's Kysely (planned each time). */
export type StatementTarget = Kysely<DB> | PooledDatabase;

/**
 * Runs a statement whose text does not vary between calls (its values are all parameters). On the pool it runs
 * as the named prepared statement `name`, planned once per connection; a transaction cannot lend its connection
 * to `Database.query`, so inside one it runs as any other Kysely statement. Answers every row.
 */
export async function runNamed<Row>(target: StatementTarget, name: string, statement: RawBuilder<Row>): Promise<Row[]> {
  if (!isPool(target)) return (await statement.execute(target)).rows;
  const compiled = statement.compile(target.db);
  const result = await target.query({ name, text: compiled.sql, values: [...compiled.parameters] });
  return result.rows as Row[];
}

function isPool(target: StatementTarget): target is PooledDatabase {
  return 'query' in target && 'db' in target;
}
