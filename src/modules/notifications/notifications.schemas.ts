// Wire shapes of the notification feed (spec §2.10, §4.8; decisions §10; docs/notifications.md).
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Limit, Nullable, Start, Uuid } from '../../platform/schemas.js';
import { ListingRecord } from '../listings/listings.schemas.js';
import { UserRecord } from '../users/users.schemas.js';

export const FEED_DEFAULT_LIMIT = 20;
export const FEED_MAX_LIMIT = 200;
/** DELETE /notifications with a body removes at most this many at once. */
export const MAX_DELETE_IDS = 1000;

const NullableString = Nullable(Type.String());
const NullableUuid = Nullable(Uuid);

export const NotificationRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('notification'),
    action: Type.String({ description: 'What happened, e.g. BecameAvailable' }),
    notification_type: Type.String({
      description: 'subject_class + action + object_class, e.g. ListingBecameAvailableUser',
    }),
    message: Type.String(),
    title: NullableString,
    object: NullableUuid,
    object_class: NullableString,
    subject: NullableUuid,
    subject_class: NullableString,
    auxiliary_object: NullableUuid,
    auxiliary_object_class: NullableString,
    auxiliary_subject: NullableUuid,
    auxiliary_subject_class: NullableString,
    extra_object_class: NullableString,
    extra_subject_class: NullableString,
    room: NullableUuid,
    recommendation: NullableUuid,
    recommendations: Nullable(Type.Array(Uuid)),
    exclude: Nullable(Type.Array(Uuid, { description: 'Users the notification was not sent to' })),
    data: Nullable(Type.Object({}, { additionalProperties: true })),
    sound: NullableString,
    app: NullableString,
    transports: Type.Array(Type.String()),
    phone_number: NullableString,
    seen: Type.Boolean({ description: 'You have seen it (PATCH …/seen)' }),
    seen_at: Nullable(EpochSeconds),
    acked_at: Nullable(EpochSeconds),
    delivered_at: Nullable(EpochSeconds),
    objects: Type.Array(UserRecord, {
      description: 'The object as a user record when object_class is User; else empty',
    }),
    subjects: Type.Array(ListingRecord, {
      description: 'The subject as a listing record when subject_class is Listing; else empty',
    }),
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
    deleted_at: Nullable(EpochSeconds),
  },
  { title: 'Notification' },
);
export type NotificationRecord = Static<typeof NotificationRecord>;

export const FeedQuery = Type.Object({
  start: Start({ default: 0 }),
  limit: Limit({ default: FEED_DEFAULT_LIMIT, maximum: FEED_MAX_LIMIT }),
});
export type FeedQuery = Static<typeof FeedQuery>;

export const NotificationParams = Type.Object({ id: Uuid });

export const DeleteNotificationsBody = Type.Object({
  notifications: Type.Optional(
    Type.Array(Uuid, {
      minItems: 1,
      maxItems: MAX_DELETE_IDS,
      description: 'These notifications; without it, all of yours',
    }),
  ),
});
export type DeleteNotificationsBody = Static<typeof DeleteNotificationsBody>;
