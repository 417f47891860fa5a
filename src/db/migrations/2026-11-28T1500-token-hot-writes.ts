// The token tables' hot writes (a refresh: one update and two inserts; a login: three inserts) carried work that
// bought nothing (docs/oauth.md, "Where a refresh goes"):
// - Foreign keys. Each token insert ran a referential check that locked its family row (FOR KEY SHARE: a WAL
//   record and a dirtied page per check), and a login locked its user's and its client's rows the same way; many
//   logins of one client share one client row, so the locks piled up as multixacts. Nothing deletes users, clients
//   or brands (they are soft-deleted), and tokens are only written by tokens.repository.ts with the family id of
//   the row it just wrote or read. The purge deletes a family's tokens itself (tokens.purge.ts).
// - The `family` indexes existed for the cascading delete alone; the purge now finds those tokens by a join.
// - A rotated refresh token is updated once (rotated_at, replaced_by: no indexed column). With room on its page the
//   update stays HOT and writes no index entry; the first use of an access token (used_at) likewise.
// Fill factors apply to pages written from now on.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table access_tokens drop constraint access_tokens_family_fkey;
    alter table refresh_tokens drop constraint refresh_tokens_family_fkey;
    alter table token_families
      drop constraint token_families_user_fkey,
      drop constraint token_families_client_fkey,
      drop constraint token_families_brand_fkey;
    drop index access_tokens_family_idx;
    drop index refresh_tokens_family_idx;
    alter table refresh_tokens set (fillfactor = 50);
    alter table access_tokens set (fillfactor = 80);
  `.execute(db);
}
