// Statements that ask the database about itself, not about a table: /health and `gable doctor` use them.
import { sql, type Kysely } from 'kysely';
import type { DB } from './types.js';

/** Resolves when the database answers a query; rejects when it does not. */
export async function pingDatabase(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}

/** The server's version, as `SHOW server_version` says it (e.g. "15.19 (Debian 15.19-0+deb12u1)"). */
export async function serverVersion(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db);
  return rows[0]!.v;
}
