// All SQL of push delivery: the ledger rows (push_deliveries), the devices they go to, and what a push reports.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { lockFeeds } from './notifications.repository.js';
import type { PushProvider, PushStatus } from './notifications.columns.js';

export interface PushTarget {
  id: string;
  user: string;
  app: string;
  provider: PushProvider;
}

/** The devices of `users` (in `app`, or every app when null). */
export async function devicesOf(db: Kysely<DB>, users: string[], app: string | null): Promise<PushTarget[]> {
  if (users.length === 0) return [];
  let query = db
    .selectFrom('notification_tokens')
    .select(['id', 'user', 'app', (eb) => eb.ref('provider').$castTo<PushProvider>().as('provider')])
    .where('user', 'in', users);
  if (app !== null) query = query.where('app', '=', app);
  return query.orderBy('created_at').execute();
}

export interface NewDelivery {
  notification: string;
  user: string;
  token: string;
  provider: PushProvider;
  app: string;
  status: 'pending' | 'skipped';
}

export async function insertDeliveries(
  db: Kysely<DB>,
  rows: NewDelivery[],
  at: Date,
): Promise<{ id: string; status: PushStatus; provider: PushProvider }[]> {
  if (rows.length === 0) return [];
  return db
    .insertInto('push_deliveries')
    .values(rows.map((row) => ({ ...row, created_at: at, updated_at: at })))
    .returning([
      'id',
      (eb) => eb.ref('status').$castTo<PushStatus>().as('status'),
      (eb) => eb.ref('provider').$castTo<PushProvider>().as('provider'),
    ])
    .execute();
}

/**
 * Everything an attempt needs, for several pushes at once (a worker's batch, push.batching.ts): the ledger row,
 * the device's channel, the notification and the recipient.
 */
export async function deliveriesForAttempt(db: Kysely<DB>, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('push_deliveries as d')
    .innerJoin('notifications as n', 'n.id', 'd.notification')
    .innerJoin('users as u', 'u.id', 'd.user')
    .leftJoin('notification_tokens as t', (join) => join.onRef('t.id', '=', 'd.token').onRef('t.user', '=', 'd.user'))
    .select([
      'd.id',
      'd.notification',
      'd.user',
      (eb) => eb.ref('d.provider').$castTo<PushProvider>().as('provider'),
      'd.app',
      'd.status',
      'd.attempts',
      'd.created_at',
      'd.token',
      't.channel_encrypted',
      'n.message',
      'n.title',
      'n.notification_type',
      'n.subject',
      'n.subject_class',
      'n.sound',
      'n.deleted_at as notification_deleted_at',
      'u.timezone',
      'u.push_allowed',
      // The badge, read with the row: one round trip less per push (one counter row, see feedCounts).
      (eb) =>
        eb.fn
          .coalesce(
            eb.selectFrom('notification_counts as c').select('c.unseen').whereRef('c.user', '=', 'd.user'),
            eb.lit(0),
          )
          .as('unseen'),
    ])
    .where('d.id', 'in', ids)
    .execute();
}

export type AttemptRow = Awaited<ReturnType<typeof deliveriesForAttempt>>[number];

export interface DeliveryUpdate {
  status: PushStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  sent_at: Date | null;
  updated_at: Date;
}

/** Moves a pending row on from attempt `expected`; false when another run already did (the job is a repeat). */
export async function advanceDelivery(
  db: Kysely<DB>,
  id: string,
  expected: number,
  update: DeliveryUpdate,
): Promise<boolean> {
  const result = await db
    .updateTable('push_deliveries')
    .set(update)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('attempts', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The provider declared the device dead: it goes at once (its other pending pushes are then dropped). */
export async function deleteToken(db: Kysely<DB>, token: string): Promise<void> {
  await db.deleteFrom('notification_tokens').where('id', '=', token).execute();
}

/**
 * A pending push (at attempt `expected`) was accepted: the row becomes sent and, in the same statement, the
 * recipient's `delivered_at` is set the first time. False when another run already moved the row on.
 */
export interface SentPush {
  id: string;
  /** The attempt the row must still be at (pending), as advanceDelivery. */
  expected: number;
  attempts: number;
  last_status: number;
  at: Date;
}

/**
 * The common outcome, for several pushes in one statement (push.batching.ts): each row still pending at its
 * expected attempt becomes sent, and its recipient's delivered_at is set the first time. Answers the ids it
 * moved on (a row another run moved already is left out).
 *
 * Setting delivered_at writes the feed rows of several recipients. Like every feed change it first takes those
 * recipients' counter row locks (notifications.repository.ts lockFeeds), in user order as the counter trigger
 * takes them: a mark-all-seen or a multi-id delete of one of them, which locks the same rows in its own
 * order, then waits for this batch or this batch for it, instead of a deadlock that failed the batch and
 * repeated its pushes on retry (push.locks.test.ts: 3 of 3 runs before).
 */
export async function markSent(db: Kysely<DB>, pushes: readonly SentPush[]): Promise<Set<string>> {
  if (pushes.length === 0) return new Set();
  return db.transaction().execute(async (trx) => {
    await lockFeeds(
      trx,
      sql`select d."user" from push_deliveries d where d.id = any(${pushes.map((p) => p.id)}::uuid[])`,
    );
    return recordSent(trx, pushes);
  });
}

async function recordSent(db: Kysely<DB>, pushes: readonly SentPush[]): Promise<Set<string>> {
  const column = <K extends keyof SentPush>(key: K) => pushes.map((p) => p[key]);
  const result = await sql<{ id: string }>`
    with input as (
      select * from unnest(${column('id')}::uuid[], ${column('expected')}::int[], ${column('attempts')}::int[], ${column('last_status')}::int[], ${column('at')}::timestamptz[])
        as i(id, expected, attempts, last_status, at)
    ), sent as (
      update push_deliveries d
      set status = 'sent', attempts = i.attempts, last_status = i.last_status, last_error = null,
          next_attempt_at = null, sent_at = i.at, updated_at = i.at
      from input i
      where d.id = i.id and d.status = 'pending' and d.attempts = i.expected
      returning d.id, d.notification, d."user", i.at
    ), delivered as (
      update notification_recipients r set delivered_at = s.at
      from sent s where r.notification = s.notification and r."user" = s."user" and r.delivered_at is null
    )
    select id from sent`.execute(db);
  return new Set(result.rows.map((r) => r.id));
}

/** The pushes of one notification (operators, tests). */
export async function deliveriesOf(db: Kysely<DB>, notification: string) {
  return db
    .selectFrom('push_deliveries')
    .select(['id', 'user', 'provider', 'status', 'attempts'])
    .where('notification', '=', notification)
    .orderBy('created_at')
    .execute();
}
