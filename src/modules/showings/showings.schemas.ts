// Wire shapes of showings (decisions §17, docs/showings.md).
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, PagingQuery, Uuid, optionalNullable as optional } from '../../platform/schemas.js';

export const SHOWING_STATUSES = ['Requested', 'Confirmed', 'Cancelled', 'Completed'] as const;
export type ShowingStatus = (typeof SHOWING_STATUSES)[number];
const Status = Type.Unsafe<ShowingStatus>({ type: 'string', enum: SHOWING_STATUSES });
/** Epoch seconds between 1970 and 2100: a time a showing can have. */
const Time = Type.Number({ minimum: 0, maximum: 4_102_444_800, description: 'Epoch seconds' });
const Text = Type.String({ maxLength: 5000 });

export const CreateShowingBody = Type.Object({
  listing: Uuid,
  contact: optional(Uuid),
  agent: Type.Optional(Uuid),
  start_time: Time,
  end_time: Time,
  status: Type.Optional(Status),
  notes: optional(Text),
  feedback: optional(Text),
});
export type CreateShowingBody = Static<typeof CreateShowingBody>;

export const UpdateShowingBody = Type.Object({
  contact: optional(Uuid),
  agent: Type.Optional(Uuid),
  start_time: Type.Optional(Time),
  end_time: Type.Optional(Time),
  status: Type.Optional(Status),
  notes: optional(Text),
  feedback: optional(Text),
});
export type UpdateShowingBody = Static<typeof UpdateShowingBody>;

export const ShowingRecord = Type.Object({
  id: Uuid,
  type: Type.Literal('showing'),
  brand: Uuid,
  listing: Uuid,
  contact: Nullable(Uuid),
  agent: Uuid,
  start_time: EpochSeconds,
  end_time: EpochSeconds,
  status: Type.String(),
  notes: Nullable(Type.String()),
  feedback: Nullable(Type.String()),
  created_by: Nullable(Uuid),
  created_at: EpochSeconds,
  updated_at: EpochSeconds,
});
export type ShowingRecord = Static<typeof ShowingRecord>;

export const ShowingParams = Type.Object({ id: Uuid });
export const BrandShowingsParams = Type.Object({ brand: Uuid });
export const ListShowingsQuery = Type.Object({
  ...PagingQuery,
  from: Type.Optional(
    Type.Number({ minimum: 0, maximum: 4_102_444_800, description: 'Showings starting at or after (epoch seconds)' }),
  ),
  to: Type.Optional(
    Type.Number({ minimum: 0, maximum: 4_102_444_800, description: 'Showings starting before (epoch seconds)' }),
  ),
  status: Type.Optional(Type.Array(Status, { maxItems: 4 })),
});
export type ListShowingsQuery = Static<typeof ListShowingsQuery>;
