// The database as Kysely sees it: DB, generated from the migrations (schema.generated.ts, `npm run db:types`).
// What a JSON or enumerated column holds is its module's to say (its *.columns.ts); the repositories narrow.
export type { DB, Json } from './schema.generated.js';

/**
 * A row as its module reads it: the columns in `Columns` (JSON, enumerated) typed as the module's own shapes
 * instead of the generated Json and string. Repositories cast the rows Kysely returns to it.
 */
export type Narrowed<Row, Columns> = Omit<Row, keyof Columns> & Columns;
