// All SQL of the users module. Functions take Kysely<DB> so a transaction can be passed in.
import { sql, type Expression, type Kysely, type Updateable } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { epochSecondsOf, nullableEpochSecondsOf } from '../../db/expressions.js';
import { preparedQuery } from '../../db/prepared.js';
import type { DB, Narrowed } from '../../db/types.js';

/**
 * The user row for the wire record, in ONE query: the newest live membership (fallback for active_brand, looked up
 * only when it is null) and the linked agents come as sub-selects. Secrets (password_hash, mfa_secret,
 * mfa_last_step) are not selected; only whether a password exists. Prepared: planning the sub-selects costs
 * several times their execution (docs/adr/0004).
 */
export const findUserRow = preparedQuery<[string], UserRow>(
  'users.find-user-row',
  ['00000000-0000-0000-0000-00000000beef'],
  (db, userId: string) => userRowQuery(db, userId),
);

/**
 * The query of findUserRow, unexecuted (benchmarks EXPLAIN it). `userId` may be a column of an outer query:
 * bearer authentication joins it laterally for the routes that present the caller (modules/auth/authenticate.ts).
 */
export function userRowQuery(db: Kysely<DB>, userId: string | Expression<string | null>) {
  return (
    db
      .selectFrom('users as u')
      .select([
        'u.id',
        'u.username',
        'u.first_name',
        'u.last_name',
        'u.email',
        'u.phone_number',
        'u.address_id',
        'u.cover_image_url',
        'u.profile_image_url',
        'u.cover_image_thumbnail_url',
        'u.profile_image_thumbnail_url',
        'u.user_status',
        'u.email_confirmed',
        'u.phone_confirmed',
        'u.timezone',
        'u.user_type',
        'u.is_shadow',
        'u.personal_room',
        'u.fake_email',
        'u.features',
        'u.last_seen_type',
        'u.email_signature',
        'u.bio',
        'u.daily_enabled',
        'u.push_allowed',
        'u.email_quota',
        'u.website',
        'u.instagram',
        'u.twitter',
        'u.linkedin',
        'u.youtube',
        'u.facebook',
        'u.tiktok',
        'u.designation',
        'u.vendor_user_id',
        'u.mfa_enabled',
      ])
      // Epoch seconds computed in SQL, as the record sends them: no timestamp text to format here and parse in Node.
      .select(epochSecondsOf('u.created_at').as('created_at'))
      .select(epochSecondsOf('u.updated_at').as('updated_at'))
      .select(nullableEpochSecondsOf('u.deleted_at').as('deleted_at'))
      .select(nullableEpochSecondsOf('u.last_seen_at').as('last_seen_at'))
      .select(sql<boolean>`u.password_hash is not null`.as('has_password'))
      // The record's active brand: the chosen one, else the newest live membership's. COALESCE runs the sub-select
      // only for a user who chose none, so a user who did pays nothing for it.
      .select((eb) =>
        eb.fn
          .coalesce(
            'u.active_brand',
            eb
              .selectFrom('memberships as m')
              .innerJoin('brands as b', 'b.id', 'm.brand')
              .select('m.brand')
              .whereRef('m.user', '=', 'u.id')
              .where('m.deleted_at', 'is', null)
              .where('b.deleted_at', 'is', null)
              .orderBy('m.created_at', 'desc')
              .limit(1),
          )
          .as('active_brand_or_newest'),
      )
      // The agents' sub-select (a sort and an aggregate: ~15 % of the bearer check's statement even when it finds
      // nothing) runs only for a user linked to an agent; for the others it is one probe of user_agents' key.
      .select((eb) => {
        const agents = jsonArrayFrom(
          eb
            .selectFrom('user_agents as ua')
            .innerJoin('agents as a', 'a.id', 'ua.agent')
            .whereRef('ua.user', '=', 'u.id')
            .where('a.deleted_at', 'is', null)
            .select([
              'a.id',
              'a.email',
              'a.mlsid',
              'a.fax',
              'a.full_name',
              'a.first_name',
              'a.last_name',
              'a.middle_name',
              'a.phone_number',
              'a.nar_number',
              'a.office_mui',
              'a.status',
              'a.office_mlsid',
              'a.work_phone',
              'a.generational_name',
              'a.mls_unique_id',
              'a.mls',
              'a.license_number',
              'a.designation',
              'a.nrds',
              'a.office_id',
            ])
            .select(epochSecondsOf('a.created_at').as('created_at'))
            .select(epochSecondsOf('a.updated_at').as('updated_at'))
            .select(nullableEpochSecondsOf('a.deleted_at').as('deleted_at'))
            .orderBy('a.created_at'),
        );
        return eb
          .case()
          .when(
            eb.exists(
              eb
                .selectFrom('user_agents as linked')
                .select(sql`1`.as('one'))
                .whereRef('linked.user', '=', 'u.id'),
            ),
          )
          .then(agents)
          .else(sql`'[]'::json`.$castTo<ValueOf<typeof agents>>())
          .end()
          .as('agents');
      })
      .where('u.id', '=', userId)
      .where('u.deleted_at', 'is', null)
  );
}

/** The type of an expression's value. */
type ValueOf<E> = E extends Expression<infer T> ? T : never;

/** A user as read: `features` is a JSON array (spec 2.1). */
export type UserRow = Narrowed<
  NonNullable<Awaited<ReturnType<ReturnType<typeof userRowQuery>['executeTakeFirst']>>>,
  { features: unknown[] | null }
>;

export type ProfileChanges = Pick<
  Updateable<DB['users']>,
  | 'first_name'
  | 'last_name'
  | 'username'
  | 'phone_number'
  | 'email_signature'
  | 'bio'
  | 'website'
  | 'instagram'
  | 'twitter'
  | 'linkedin'
  | 'youtube'
  | 'facebook'
  | 'tiktok'
  | 'designation'
  | 'timezone'
  | 'daily_enabled'
  | 'push_allowed'
>;

/** Returns false when the user does not exist (or is deleted). */
export async function updateProfile(
  db: Kysely<DB>,
  userId: string,
  changes: ProfileChanges,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findPasswordHash(
  db: Kysely<DB>,
  userId: string,
): Promise<{ email: string; password_hash: string | null } | undefined> {
  return db
    .selectFrom('users')
    .select(['email', 'password_hash'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function setPasswordHash(db: Kysely<DB>, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Revokes every live token family of the user except `keepFamily`; returns how many were revoked. */
export async function revokeOtherFamilies(
  db: Kysely<DB>,
  userId: string,
  keepFamily: string | null,
  reason: string,
  now: Date,
): Promise<number> {
  let query = db
    .updateTable('token_families')
    .set({ revoked_at: now, revoked_reason: reason })
    .where('user', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepFamily) query = query.where('id', '!=', keepFamily);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function setActiveBrand(db: Kysely<DB>, userId: string, brandId: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ active_brand: brandId, updated_at: now }).where('id', '=', userId).execute();
}

/** A live user by id (when `ref` is a uuid) or by email (case-insensitive), for operator commands. */
export async function findLiveUserByRef(
  db: Kysely<DB>,
  ref: string,
): Promise<{ id: string; email: string } | undefined> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref);
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where(isUuid ? sql<boolean>`id = ${ref}::uuid` : sql<boolean>`lower(email) = lower(${ref})`)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The user when live (not deleted). */
export async function findLiveUserId(db: Kysely<DB>, userId: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The time zone of a live user. */
export async function findLiveUserTimezone(db: Kysely<DB>, userId: string): Promise<{ timezone: string } | undefined> {
  return db
    .selectFrom('users')
    .select('timezone')
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * The user's time zone and monthly email quota, the row locked (FOR UPDATE) so that two campaigns planned at
 * once count against the quota one after the other. Throws when there is no such user.
 */
export async function lockUserEmailQuota(
  db: Kysely<DB>,
  userId: string,
): Promise<{ timezone: string; email_quota: number }> {
  return db
    .selectFrom('users')
    .select(['timezone', 'email_quota'])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export interface NewUserRow {
  id?: string;
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  timezone: string;
}

export async function insertUser(db: Kysely<DB>, user: NewUserRow): Promise<{ id: string; email: string }> {
  return db
    .insertInto('users')
    .values({
      ...(user.id ? { id: user.id } : {}),
      email: user.email,
      password_hash: user.passwordHash,
      first_name: user.firstName,
      last_name: user.lastName,
      timezone: user.timezone,
      ...NO_PROFILE_YET,
    })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
}

/** Columns without a database default: a new account starts with none of them. */
const NO_PROFILE_YET = {
  username: null,
  phone_number: null,
  address_id: null,
  cover_image_url: null,
  profile_image_url: null,
  cover_image_thumbnail_url: null,
  profile_image_thumbnail_url: null,
  active_brand: null,
  fake_email: null,
  features: null,
  last_seen_at: null,
  last_seen_type: null,
  website: null,
  instagram: null,
  twitter: null,
  linkedin: null,
  youtube: null,
  facebook: null,
  tiktok: null,
  designation: null,
  vendor_user_id: null,
  mfa_secret: null,
  mfa_last_step: null,
  deleted_at: null,
} as const;

export async function findUserById(
  db: Kysely<DB>,
  id: string,
): Promise<{ id: string; email: string; deleted_at: Date | null } | undefined> {
  return db.selectFrom('users').select(['id', 'email', 'deleted_at']).where('id', '=', id).executeTakeFirst();
}

/** A live user as the sign-in pages greet them (name, email) and whether a TOTP step follows. */
export async function findPageUser(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'mfa_enabled'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** What OpenID Connect may say of a live user (modules/auth/openid.claims.ts picks by scope). */
export async function findUserClaims(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'email_confirmed', 'first_name', 'last_name', 'phone_number', 'phone_confirmed'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
