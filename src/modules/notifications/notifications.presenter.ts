// The notification record (spec §2.10) of feed rows: one batch of user records for the objects and one query for
// the listing subjects of a page.
import type { Kysely } from 'kysely';
import { narrowed } from '../../db/narrow.js';
import type { DB } from '../../db/types.js';
import { epochSeconds } from '../../lib/clock.js';
import { loadListingRecords } from '../listings/index.js';
import type { ListingRecord } from '../listings/listings.schemas.js';
import { userRowQuery, type UserRow, toUserRecord } from '../users/index.js';
import type { UserRecord } from '../users/users.schemas.js';
import type { FeedRow } from './notifications.repository.js';
import type { NotificationRecord } from './notifications.schemas.js';

const distinct = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))];

export async function presentFeed(db: Kysely<DB>, rows: FeedRow[], now: Date): Promise<NotificationRecord[]> {
  const userIds = distinct(rows.map((r) => (r.object_class === 'User' ? r.object : null)));
  const listingIds = distinct(rows.map((r) => (r.subject_class === 'Listing' ? r.subject : null)));
  const { users, listings } = await loadEmbeddedRecords(db, userIds, listingIds, now);
  return rows.map((row) => presentRow(row, users, listings));
}

/** The records a page embeds: its `User` objects and `Listing` subjects, by id (a missing one is absent). */
export async function loadEmbeddedRecords(
  db: Kysely<DB>,
  userIds: string[],
  listingIds: string[],
  now: Date,
): Promise<{ users: Map<string, UserRecord>; listings: Map<string, ListingRecord> }> {
  const [users, listings] = await Promise.all([
    Promise.all(
      userIds.map(async (id) => narrowed<UserRow | undefined>(await userRowQuery(db, id).executeTakeFirst())),
    ),
    loadListingRecords(db, listingIds, now),
  ]);
  return {
    users: new Map<string, UserRecord>(
      users.flatMap((row) => (row ? [[row.id, toUserRecord(row, now)] as const] : [])),
    ),
    listings: new Map<string, ListingRecord>(listings.map((l) => [l.id, l])),
  };
}

/**
 * The feed record. GET /notifications writes the same record in SQL (the `record_head` trigger of migrations
 * 2026-11-28T0600 and T0900, and feed-page.repository.ts): a field changed here must change there, with a migration that
 * replaces the trigger function and rewrites the rows; feed-json.test.ts fails until both agree.
 */
function presentRow(
  row: FeedRow,
  users: Map<string, UserRecord>,
  listings: Map<string, ListingRecord>,
): NotificationRecord {
  const user = row.object_class === 'User' && row.object ? users.get(row.object) : undefined;
  const listing = row.subject_class === 'Listing' && row.subject ? listings.get(row.subject) : undefined;
  return {
    id: row.id,
    type: 'notification',
    action: row.action,
    notification_type: row.notification_type,
    message: row.message,
    title: row.title,
    object: row.object,
    object_class: row.object_class,
    subject: row.subject,
    subject_class: row.subject_class,
    auxiliary_object: row.auxiliary_object,
    auxiliary_object_class: row.auxiliary_object_class,
    auxiliary_subject: row.auxiliary_subject,
    auxiliary_subject_class: row.auxiliary_subject_class,
    extra_object_class: row.extra_object_class,
    extra_subject_class: row.extra_subject_class,
    room: row.room,
    recommendation: row.recommendation,
    recommendations: null,
    exclude: row.exclude,
    data: row.data,
    sound: row.sound,
    app: row.app,
    transports: row.transports,
    phone_number: row.phone_number,
    seen: row.seen_at !== null,
    seen_at: epochSeconds(row.seen_at),
    acked_at: epochSeconds(row.acked_at),
    delivered_at: epochSeconds(row.delivered_at),
    // Always arrays (spec §2.10): empty when the object is no user, the subject no listing, or either is gone.
    objects: row.object_class === 'User' && user ? [user] : [],
    subjects: row.subject_class === 'Listing' && listing ? [listing] : [],
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
    deleted_at: epochSeconds(row.deleted_at),
  };
}
