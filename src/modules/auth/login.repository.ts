// SQL of password sign-in (the password grant and the authorization pages): the live user behind a login name.
// Both reads are prepared: every sign-in runs one, and the plan (users_email_live_idx) is the same for any email.
import { sql, type Kysely } from 'kysely';
import { preparedQuery, type PooledDatabase } from '../../db/prepared.js';
import type { DB } from '../../db/types.js';
import { userRowQuery, type UserRow } from '../users/index.js';

/** Emails compare case-insensitively: users_email_live_idx is on lower(email) of live users. */
function liveUserByEmailQuery(db: Kysely<DB>, lowerCaseEmail: string) {
  return db
    .selectFrom('users as l')
    .where(sql<string>`lower(l.email)`, '=', lowerCaseEmail)
    .where('l.deleted_at', 'is', null);
}

const liveUserByEmail = preparedQuery('auth.live-user-by-email', ['\u0000email'], (db, email: string) =>
  liveUserByEmailQuery(db, email).select(['l.id', 'l.email', 'l.password_hash', 'l.mfa_enabled']),
);

export function findLiveUserByEmail(database: PooledDatabase, email: string) {
  return liveUserByEmail(database, email.toLowerCase());
}

/**
 * The live user with its password hash AND its wire record's row, in one round trip: the password grant
 * answers the record beside the tokens, and reading it again would cost every login one more statement.
 * Callers return the row only once the password has been checked.
 */
const liveUserWithRowByEmail = preparedQuery('auth.live-user-with-row-by-email', ['\u0000email'], (db, email: string) =>
  liveUserByEmailQuery(db, email)
    .innerJoinLateral(userRowQuery(db, sql.ref<string>('l.id')).as('ur'), (join) => join.onTrue())
    .select('l.password_hash')
    .selectAll('ur'),
);

export async function findLiveUserWithRowByEmail(
  database: PooledDatabase,
  email: string,
): Promise<{ passwordHash: string | null; row: UserRow } | undefined> {
  const found = await liveUserWithRowByEmail(database, email.toLowerCase());
  if (!found) return undefined;
  const { password_hash: passwordHash, ...row } = found;
  return { passwordHash, row: row as unknown as UserRow }; // `features` as read is the JSON array UserRow names
}
