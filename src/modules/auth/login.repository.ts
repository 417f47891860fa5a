// SQL of password sign-in (the password grant and the authorization pages): the live user behind a login name.
// Both reads are prepared: every sign-in runs one, and the plan (users_email_live_idx) is the same for any email.
import { sql, type Kysely } from 'kysely';
import { preparedQuery, type PooledDatabase } from '../../db/prepared.js';
import type { DB } from '../../db/types.js';
import { CLAIM_STAND_INS, claimInside, type ClaimValues } from '../../platform/attempts.js';
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

/** The live user with its password hash AND its wire record's row. */
function liveUserWithRowByEmailQuery(db: Kysely<DB>, lowerCaseEmail: string) {
  return liveUserByEmailQuery(db, lowerCaseEmail)
    .innerJoinLateral(userRowQuery(db, sql.ref<string>('l.id')).as('ur'), (join) => join.onTrue())
    .select('l.password_hash')
    .selectAll('ur');
}

type LiveUserWithRow = { password_hash: string | null } & Record<keyof UserRow, unknown>;

/**
 * A password sign-in's first statement: the attempt claim (platform/attempts.ts, counted before the password is
 * checked) and the live user behind the email with its password hash and the row of its wire record, in ONE
 * round trip. The grant answers the record beside the tokens, and reading it, or claiming, on its own would cost
 * every login one more statement. The user is read even when the claim is refused; callers settle the claim
 * first and return the row only once the password has been checked.
 */
const claimAndLiveUserWithRow = preparedQuery(
  'auth.claim+live-user-with-row-by-email',
  [CLAIM_STAND_INS, '\u0000email'],
  (db, claim: ClaimValues, email: string) => sql<{ claimed_keys: number } & Partial<LiveUserWithRow>>`
    with claimed as (${claimInside(claim)})
    select (select count(*) from claimed)::int as claimed_keys, u.*
      from (values (1)) as one (x)
      left join lateral (${liveUserWithRowByEmailQuery(db, email)}) as u on true
  `,
);

export async function claimAndFindLiveUserWithRowByEmail(
  database: PooledDatabase,
  claim: ClaimValues,
  email: string,
): Promise<{ claimedKeys: number; user: { passwordHash: string | null; row: UserRow } | undefined }> {
  const {
    claimed_keys: claimedKeys,
    password_hash: passwordHash,
    ...row
  } = (await claimAndLiveUserWithRow(database, claim, email.toLowerCase()))!;
  // `features` as read is the JSON array UserRow names
  return {
    claimedKeys,
    user: row.id ? { passwordHash: passwordHash ?? null, row: row as unknown as UserRow } : undefined,
  };
}
