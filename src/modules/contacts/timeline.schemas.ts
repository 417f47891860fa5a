// Wire shapes of a contact's timeline: the activity a client records and the record it reads back.
// Attachments are closed objects (unknown keys are dropped) so what is stored stays bounded.
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, Uuid, optionalNullable as optional } from '../../platform/schemas.js';
import { Paging } from './contacts.schemas.js';

const Text = (maxLength: number) => Type.String({ maxLength });
const closed = { additionalProperties: false } as const;

export const ACTION_PATTERN = '^Contact[A-Z][A-Za-z]{1,80}$';

export const ActivityListingInput = Type.Object(
  {
    id: optional(Uuid),
    mls: optional(Text(100)),
    mls_number: optional(Text(100)),
    status: optional(Text(50)),
    price: optional(Type.Number({ minimum: 0, maximum: 1e12 })),
    address: optional(Text(500)),
  },
  {
    ...closed,
    description:
      'Spec §6 listing. Only `id`, or only `mls_number` (and `mls`), is enough: the rest is read from the listing store.',
  },
);
export type ActivityListingInput = Static<typeof ActivityListingInput>;

export const ActivityLead = Type.Object(
  {
    first_name: optional(Text(200)),
    last_name: optional(Text(200)),
    email: optional(Text(254)),
    phone_number: optional(Text(40)),
    source_type: optional(Text(100)),
    lead_source: optional(Text(500)),
    lead_channel: optional(Uuid),
    note: optional(Text(5000)),
    tag: optional(Type.Array(Text(100), { maxItems: 100 })),
    listing_id: optional(Text(100)),
    mlsid: optional(Text(100)),
    referer_url: optional(Text(2048)),
  },
  closed,
);

export const ActivitySearch = Type.Object(
  {
    id: optional(Uuid),
    title: optional(Text(500)),
    q: optional(Text(1000)),
    url: optional(Text(2048)),
  },
  { ...closed, description: 'A saved search (`id`, `title`) or a search run (`q`, `url`)' },
);

export const RecordActivityBody = Type.Object({
  action: Type.String({
    pattern: ACTION_PATTERN,
    maxLength: 88,
    description: 'Contact<Verb><Object>, e.g. ContactViewedListing',
  }),
  listing: optional(ActivityListingInput),
  lead: optional(ActivityLead),
  search: optional(ActivitySearch),
  notes: optional(Text(5000)),
});
export type RecordActivityBody = Static<typeof RecordActivityBody>;

const NullableString = Nullable(Type.String());

export const ActivityListing = Type.Object({
  id: NullableString,
  mls: NullableString,
  mls_number: NullableString,
  status: NullableString,
  price: Nullable(Type.Number()),
  address: NullableString,
});

export const ActivityRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('contact_activity'),
    contact: Uuid,
    brand: Uuid,
    action: Type.String(),
    listing: Nullable(ActivityListing),
    lead: Nullable(Type.Object({ ...ActivityLead.properties })),
    search: Nullable(Type.Object({ ...ActivitySearch.properties })),
    notes: NullableString,
    created_by: Nullable(Uuid),
    created_at: EpochSeconds,
  },
  { title: 'ContactActivity' },
);
export type ActivityRecord = Static<typeof ActivityRecord>;

export const TimelineQuery = Type.Object({ ...Paging });
