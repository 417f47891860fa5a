// SQL of password sign-in (the password grant and the authorization pages): the live user behind a login name.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** Emails compare case-insensitively (users_email_live_idx is on lower(email) of live users). */
export function findLiveUserByEmail(db: Kysely<DB>, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash', 'mfa_enabled'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
