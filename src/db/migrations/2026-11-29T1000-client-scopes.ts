// Scopes that mean something (issue 33, decisions §22, docs/oauth.md): the API scopes an operator lets a client ask
// for. Null, which every client registered before scopes existed gets, means every scope: such a client's token
// requests without `scope` keep getting `full`, today's behaviour.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table oauth_clients add column allowed_scopes text[]`.execute(db);
}
