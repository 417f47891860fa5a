// All SQL of the notification feed. Functions take Kysely<DB> (or a transaction) so notify() writes inside the
// caller's transaction.
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { unnestRows } from '../../db/arrays.js';
import { narrowed } from '../../db/narrow.js';
import type { DB, Narrowed } from '../../db/types.js';

/** The channel of the live stream (PostgreSQL LISTEN/NOTIFY); notifications.stream.ts listens to it. */
export const STREAM_CHANNEL = 'gable_notifications';

/** A notification as read: its data typed. */
export type NotificationRow = Narrowed<Selectable<DB['notifications']>, { data: Record<string, unknown> | null }>;
export type NewNotification = Omit<NotificationRow, 'id' | 'updated_at' | 'deleted_at' | 'data' | 'record_head'> & {
  data: Record<string, unknown> | null;
};

/** A notification as one recipient sees it: the shared row plus their own state of it. */
export interface FeedRow extends NotificationRow {
  seq: number;
  seen_at: Date | null;
  acked_at: Date | null;
  delivered_at: Date | null;
}

export async function insertNotification(db: Kysely<DB>, row: NewNotification): Promise<NotificationRow> {
  return narrowed<NotificationRow>(
    await db
      .insertInto('notifications')
      .values({ ...row, data: row.data === null ? null : JSON.stringify(row.data), updated_at: row.created_at })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/** The columns a notification is written with, and their types (for unnestRows). */
const NOTIFICATION_COLUMNS = {
  id: 'uuid',
  action: 'text',
  notification_type: 'text',
  message: 'text',
  title: 'text',
  object: 'uuid',
  object_class: 'text',
  subject: 'uuid',
  subject_class: 'text',
  auxiliary_object: 'uuid',
  auxiliary_object_class: 'text',
  auxiliary_subject: 'uuid',
  auxiliary_subject_class: 'text',
  extra_object_class: 'text',
  extra_subject_class: 'text',
  room: 'uuid',
  recommendation: 'uuid',
  exclude: 'uuid[]',
  data: 'jsonb',
  sound: 'text',
  app: 'text',
  transports: 'text[]',
  phone_number: 'text',
  created_at: 'timestamptz',
} as const satisfies Record<keyof NewNotification | 'id', string>;

/**
 * Several notifications in one insert (ids chosen by the caller, so nothing is read back): one array parameter
 * per column (saved-search delivery writes 500 at a time).
 */
export async function insertNotifications(db: Kysely<DB>, rows: (NewNotification & { id: string })[]): Promise<void> {
  if (rows.length === 0) return;
  const { select, from, column } = unnestRows(rows, NOTIFICATION_COLUMNS);
  const names = Object.keys(NOTIFICATION_COLUMNS).map((name) => sql.id(name));
  await sql`insert into notifications (${sql.join(names)}, updated_at) select ${select}, ${column('created_at')} from ${from}`.execute(
    db,
  );
}

/** The live users among `ids` (a deleted user gets nothing). */
export async function liveUsers(db: Kysely<DB>, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The recipients of one notification (notify) or many (notifyMany) in one insert, each announced to the live
 * stream (the message announce() sends, `{"u","n","s"}`, written by the statement itself: as 10,000 JSON texts in
 * one array parameter, building and escaping them cost more in Node than the rows' insert). Feed positions are
 * drawn, and announced, in the order of `rows`.
 */
export async function insertAnnouncedRecipients(
  db: Kysely<DB>,
  rows: { notification: string; user: string }[],
  at: Date,
): Promise<{ notification: string; user: string; seq: number }[]> {
  if (rows.length === 0) return [];
  // One array parameter per column (a VALUES list bound three per row); seq is drawn in the arrays' order.
  const { select, from } = unnestRows(rows, { notification: 'uuid', user: 'uuid' });
  const { rows: inserted } = await sql<{ notification: string; user: string; seq: number }>`
    with inserted as (
      insert into notification_recipients (notification, "user", created_at) select ${select}, ${at}::timestamptz from ${from}
      returning notification, "user", seq
    )
    select notification, "user", seq,
      pg_notify(${STREAM_CHANNEL}, '{"u":"' || "user" || '","n":"' || notification || '","s":' || seq || '}') as announced
    from inserted`.execute(db);
  return inserted.map(({ notification, user, seq }) => ({ notification, user, seq: Number(seq) }));
}

/** Stream messages, delivered to listeners when (and only if) the transaction commits. */
export interface StreamMessage {
  /** The recipient. */
  u: string;
  /** A new notification and its feed position; absent when only the unseen count changed. */
  n?: string;
  s?: number;
}

export async function announce(db: Kysely<DB>, messages: StreamMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const payloads = messages.map((m) => JSON.stringify(m));
  await sql`select pg_notify(${STREAM_CHANNEL}, p) from unnest(${payloads}::text[]) as p`.execute(db);
}

function feedQuery(db: Kysely<DB>, user: string) {
  return db
    .selectFrom('notification_recipients as r')
    .innerJoin('notifications as n', 'n.id', 'r.notification')
    .selectAll('n')
    .select(['r.seq', 'r.seen_at', 'r.acked_at', 'r.delivered_at'])
    .where('r.user', '=', user)
    .where('r.deleted_at', 'is', null)
    .where('n.deleted_at', 'is', null);
}

/** The recipient's feed after a position, oldest first (stream resumption). */
export async function feedAfter(db: Kysely<DB>, user: string, seq: number, limit: number): Promise<FeedRow[]> {
  return narrowed<FeedRow[]>(
    await feedQuery(db, user).where('r.seq', '>', seq).orderBy('r.seq', 'asc').limit(limit).execute(),
  );
}

/** The recipient's newest feed position (0 for an empty feed). */
export async function latestSeq(db: Kysely<DB>, user: string): Promise<number> {
  const row = await db
    .selectFrom('notification_recipients')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('user', '=', user)
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

export async function findFeedRow(db: Kysely<DB>, user: string, id: string): Promise<FeedRow | undefined> {
  return narrowed<FeedRow | undefined>(await feedQuery(db, user).where('n.id', '=', id).executeTakeFirst());
}

/**
 * The recipient's total and unseen counts, over the whole feed: one row of `notification_counts`, which triggers
 * on notification_recipients keep in the transaction of every change (migration
 * 2026-11-26T0200-notification-counts), because every feed read, every stream update and every push (the badge)
 * asks. A notification is withdrawn from a feed by its recipient row's `deleted_at`; nothing sets
 * `notifications.deleted_at` (a feature that ever withdraws one for everybody must set its recipients' too).
 */
export async function feedCounts(db: Kysely<DB>, user: string): Promise<{ total: number; unseen: number }> {
  const row = await db
    .selectFrom('notification_counts')
    .select(['total', 'unseen'])
    .where('user', '=', user)
    .executeTakeFirst();
  return { total: Number(row?.total ?? 0), unseen: Number(row?.unseen ?? 0) };
}

export async function unseenCount(db: Kysely<DB>, user: string): Promise<number> {
  return (await feedCounts(db, user)).unseen;
}

/** Marks one notification (or, with `id` null, every unseen one) seen; `ack` also acknowledges it. Answers rows changed. */
export async function markSeen(
  db: Kysely<DB>,
  user: string,
  id: string | null,
  at: Date,
  ack: boolean,
): Promise<number> {
  let query = db
    .updateTable('notification_recipients')
    .set({
      seen_at: sql<Date>`coalesce(seen_at, ${at})`,
      ...(ack ? { acked_at: sql<Date>`coalesce(acked_at, ${at})` } : {}),
    })
    .where('user', '=', user)
    .where('deleted_at', 'is', null);
  query = id === null ? query.where('seen_at', 'is', null) : query.where('notification', '=', id);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Takes the recipient's feed counter row lock (notification_counts) before any of their feed rows: a change to
 * someone's feed (seen, delete) waits here for another, so two of them never lock the same feed rows in different
 * orders. Without it, deleting two notifications (locked in id order) while "mark all seen" updated the feed (in
 * the heap's order) could each hold the row the other needed: PostgreSQL aborted one with a deadlock, a 500
 * (notifications.counts.test.ts, once in a few runs on PostgreSQL). notify() takes this lock last, through its
 * counter trigger, and holds no feed row another change waits for, so it joins no cycle.
 */
export async function lockFeed(db: Kysely<DB>, user: string): Promise<void> {
  await lockFeeds(db, sql`select ${user}::uuid`);
}

/**
 * lockFeed for several recipients (`users`: a query of their ids), in user order, the order the counter trigger
 * takes them in: a change to several feeds at once (push.repository.ts markSent) waits for, or is waited for by,
 * each recipient's own changes.
 */
export async function lockFeeds(db: Kysely<DB>, users: RawBuilder<unknown>): Promise<void> {
  await sql`select c."user" from notification_counts c where c."user" in (${users}) order by c."user" for update of c`.execute(
    db,
  );
}

/** Locks and returns which of `ids` are in the recipient's live feed. */
export async function ownedIds(db: Kysely<DB>, user: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('notification_recipients')
    .select('notification')
    .where('user', '=', user)
    .where('notification', 'in', ids)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .execute();
  return rows.map((r) => r.notification);
}

/** Removes notifications from the recipient's feed (theirs only: other recipients keep theirs). */
export async function deleteFromFeed(db: Kysely<DB>, user: string, ids: string[] | null, at: Date): Promise<number> {
  let query = db
    .updateTable('notification_recipients')
    .set({ deleted_at: at })
    .where('user', '=', user)
    .where('deleted_at', 'is', null);
  if (ids !== null) query = query.where('notification', 'in', ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
