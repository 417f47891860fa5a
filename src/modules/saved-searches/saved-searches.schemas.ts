// Wire shapes of saved searches (spec §2.5 and §4.4, decisions §6). The criteria are listing search's own
// schema (listings/search/search.schemas.ts), never restated here.
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, PagingQuery, Uuid, optionalNullable as optional } from '../../platform/schemas.js';
import { Boundary } from '../boundaries/boundaries.schemas.js';
import { BrandRecord } from '../brands/brands.schemas.js';
import { ContactRecord } from '../contacts/contacts.schemas.js';
import { DEFAULT_CURRENCY, Location, SearchCriteria } from '../listings/search/search.schemas.js';

export const FREQUENCIES = ['Instant', 'Never', 'Daily', 'Weekly', 'Monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

const Frequency = Type.Union(
  FREQUENCIES.map((f) => Type.Literal(f)),
  { description: 'Exact case. Instant and Never ignore the schedule fields' },
);
/** The schedule of a contact link (spec §8): required by frequency, checked in the service. */
export const ScheduleFields = {
  frequency: Type.Optional(Nullable(Frequency)),
  send_time: optional(
    Type.Integer({
      minimum: 0,
      maximum: 1439,
      description: 'Minutes since midnight in the owner’s time zone: Daily, Weekly, Monthly',
    }),
  ),
  send_weekday: optional(Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday … 6 = Saturday: Weekly' })),
  send_monthday: optional(
    Type.Integer({ minimum: 1, maximum: 31, description: '1–31, clamped to the last day of a shorter month: Monthly' }),
  ),
};

const MAX_LINKED_CONTACTS = 1000;
const ContactIds = Type.Array(Uuid, {
  maxItems: MAX_LINKED_CONTACTS,
  description: `Contacts to alert (up to ${MAX_LINKED_CONTACTS}); each receives the flat schedule`,
});

/** POST, PUT and PATCH body: the criteria, a title, linked contacts and the flat schedule. */
export const SavedSearchInput = Type.Composite(
  [
    SearchCriteria,
    Type.Object({
      title: optional(Type.String({ maxLength: 500 })),
      contacts: optional(ContactIds),
      ...ScheduleFields,
    }),
  ],
  {
    examples: [
      {
        title: 'Family homes in 75219',
        points: [
          { latitude: 32.81, longitude: -96.82 },
          { latitude: 32.81, longitude: -96.79 },
          { latitude: 32.79, longitude: -96.79 },
          { latitude: 32.81, longitude: -96.82 },
        ],
        minimum_bedrooms: 3,
        maximum_price: 750000,
        frequency: 'Daily',
        send_time: 480,
      },
    ],
  },
);
export type SavedSearchInput = Static<typeof SavedSearchInput>;

export const LinkContactsBody = Type.Object({
  contacts: ContactIds,
  ...ScheduleFields,
});
export type LinkContactsBody = Static<typeof LinkContactsBody>;

export const SavedSearchParams = Type.Object({ brand: Uuid, id: Uuid });
export const SavedSearchContactParams = Type.Object({ brand: Uuid, id: Uuid, contact: Uuid });
export const ListSavedSearchesQuery = Type.Object({ ...PagingQuery });
export type ListSavedSearchesQuery = Static<typeof ListSavedSearchesQuery>;

export const ContactLink = Type.Object({
  type: Type.Literal('saved_search_contact'),
  contact: Uuid,
  frequency: Frequency,
  send_time: Nullable(Type.Integer()),
  send_weekday: Nullable(Type.Integer()),
  send_monthday: Nullable(Type.Integer()),
  created_at: EpochSeconds,
  updated_at: EpochSeconds,
});
export type ContactLink = Static<typeof ContactLink>;

const LocationOut = Type.Composite([Location, Type.Object({ type: Type.Literal('location') })]);
const StoredCriteria = Type.Composite([
  Type.Required(Type.Omit(SearchCriteria, ['points', 'brands', 'boundaries', 'currency'])),
  Type.Object({
    currency: Type.String({
      description: `ISO 4217 currency of the price range: ${DEFAULT_CURRENCY} unless the search names another`,
    }),
  }),
]);

export const SavedSearchRecord = Type.Composite(
  [
    Type.Object({
      id: Uuid,
      type: Type.Literal('saved_search'),
      brand: Uuid,
      created_by: Nullable(Uuid),
      from: Nullable(Uuid),
      title: Type.String(),
      proposed_title: Type.String(),
      created_at: EpochSeconds,
      updated_at: EpochSeconds,
      deleted_at: Nullable(EpochSeconds),
      timezone: Type.String({ description: 'IANA zone of the schedule: the owning user’s' }),
      frequency: Frequency,
      send_time: Nullable(Type.Integer()),
      send_weekday: Nullable(Type.Integer()),
      send_monthday: Nullable(Type.Integer()),
      points: Nullable(Type.Array(LocationOut)),
      brands: Nullable(
        Type.Union([Type.Array(Uuid), Type.Array(BrandRecord)], {
          description: 'Ids; brand records with associations[]=saved_search.brands',
        }),
      ),
      boundaries: Nullable(
        Type.Union([Type.Array(Uuid), Type.Array(Boundary)], {
          description: 'Ids; boundary records with associations[]=saved_search.boundaries',
        }),
      ),
      contacts: Nullable(
        Type.Union([Type.Array(Uuid), Type.Array(ContactRecord)], {
          description: 'Ids; contact records with associations[]=saved_search.contacts',
        }),
      ),
      contact_links: Type.Array(ContactLink, {
        description: 'Each linked contact with its delivery frequency and schedule',
      }),
    }),
    StoredCriteria,
  ],
  { title: 'SavedSearch' },
);
export type SavedSearchRecord = Static<typeof SavedSearchRecord>;
