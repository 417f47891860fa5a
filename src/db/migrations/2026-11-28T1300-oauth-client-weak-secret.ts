// An operator may import an existing client's weak secret as it is (`gable admin client create
// --allow-weak-secret`, decisions §20): the client says so, so that it can be found and its secret replaced later.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table oauth_clients add column weak_secret boolean not null default false`.execute(db);
}
