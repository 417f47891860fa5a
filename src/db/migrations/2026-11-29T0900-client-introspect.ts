// RFC 7662 token introspection (issue 33, decisions §22, docs/oauth.md): only a confidential client an operator
// allowed (`gable admin client create --introspect`, typically a resource server of the brokerage) may ask
// whether a token is live, since the answer tells who the token's user is.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table oauth_clients add column may_introspect boolean not null default false`.execute(db);
}
