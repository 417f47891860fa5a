// OpenID Connect RP-Initiated Logout (issue 33, docs/openid-connect.md): where a client may send the browser back
// after the sign-out it asked for. Registered per client like its redirect URIs and matched exactly; a logout
// request naming any other address gets an error page, never a redirect.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table oauth_clients add column post_logout_redirect_uris text[] not null default '{}'`.execute(db);
}
