// Wire shapes of contacts (spec §2.7 + decisions §14, docs/contacts.md): the write body shared by create and
// update, the record, the list query. Strings are bounded; semantic checks (phone numbers, calendar dates, NUL)
// are in contacts.input.ts so that they can name the field, also inside a bulk body.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  EpochSeconds,
  ExpansionQuery,
  PagingQuery,
  Uuid,
  orderPattern,
  optionalNullable as optional,
} from '../../platform/schemas.js';
import { TriggerRecord } from '../triggers/triggers.schemas.js';

/** Optional, and null clears it. `type: [T, 'null']` rather than anyOf (see search.schemas.ts). */
const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });
const Name = Text(200);
const Email = Type.String({ format: 'email', maxLength: 254 });
/** `checked`: with the format that the service applies (platform/validation.ts), where the service reads the field. */
const Phone = (checked = true) =>
  Type.String({
    minLength: 1,
    maxLength: 40,
    ...(checked ? { format: 'phone-number' } : {}),
    description: 'Any common form; stored in E.164 (national numbers are read as US)',
  });
const IsoDate = (checked = true) =>
  Type.String({
    maxLength: 10,
    ...(checked ? { format: 'partial-date' } : {}),
    description: 'YYYY-MM-DD, a real date; year 0000 (or --MM-DD) when the year is unknown; "" clears it',
  });
const Url = Text(2048);

export const MAX_CONTACTS_PER_REQUEST = 1000;

/** The shared paging (bounded start and limit, decisions §1). */
export const Paging = PagingQuery;
export const MAX_EMAILS = 20;
export const MAX_PHONES = 20;
export const MAX_TAGS = 100;

export const ContactAddress = Type.Object({
  city: optional(Text(200)),
  full: optional(Text(1000)),
  name: optional(Text(200)),
  type: optional(Text(100)),
  extra: optional(Text(500)),
  line1: optional(Text(500)),
  line2: optional(Text(500)),
  state: optional(Text(200)),
  country: optional(Text(200)),
  postcode: optional(Text(50)),
});

/** The keys of an address object (spec §2.7), in the spec's order. */
export const ADDRESS_KEYS = Object.keys(ContactAddress.properties) as (keyof typeof ContactAddress.properties)[];

const contactInput = (checked: boolean) =>
  Type.Object({
    title: optional(Text(100)),
    first_name: optional(Name),
    middle_name: optional(Name),
    last_name: optional(Name),
    nickname: optional(Name),
    marketing_name: optional(Name),
    partner_first_name: optional(Name),
    partner_last_name: optional(Name),
    partner_email: optional(Email),
    company: optional(Name),
    job_title: optional(Name),
    email: optional({ ...Email, description: 'The primary email (added to emails if missing)' }),
    primary_email: optional({ ...Email, description: 'Same as email' }),
    emails: optional(
      Type.Array(Email, {
        maxItems: MAX_EMAILS,
        description: 'Primary first unless email/primary_email names another',
      }),
    ),
    phone_number: optional({
      ...Phone(checked),
      description: 'The primary phone number (added to phone_numbers if missing)',
    }),
    primary_phone_number: optional({ ...Phone(checked), description: 'Same as phone_number' }),
    phone_numbers: optional(Type.Array(Phone(checked), { maxItems: MAX_PHONES })),
    birthday: optional(IsoDate(checked)),
    home_anniversary: optional(IsoDate(checked)),
    wedding_anniversary: optional(IsoDate(checked)),
    profile_image_url: optional(Url),
    cover_image_url: optional(Url),
    website: optional(Type.Array(Url, { maxItems: 10 })),
    tags: optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: MAX_TAGS })),
    address: optional(Type.Array(ContactAddress, { maxItems: 10 })),
    source_type: optional(Text(100, 'Where the contact came from, e.g. ExplicitlyCreated, CSV, Website')),
    source: optional(Text(500)),
    parked: optional(Type.Boolean()),
    unsubscribed: optional(Type.Boolean({ description: 'Marketing mail is not sent to this contact' })),
    ios_address_book_id: optional(Text(200)),
    android_address_book_id: optional(Text(200)),
    touch_freq: optional(
      Type.Integer({
        minimum: 1,
        maximum: 3650,
        description: 'Days between touches; next_touch = last_touch + touch_freq',
      }),
    ),
  });
export const ContactInput = contactInput(true);
export type ContactInput = Static<typeof ContactInput>;

/** The fields whose format the service checks where it reads them. */
const FORMATTED_FIELDS = [
  'phone_number',
  'primary_phone_number',
  'phone_numbers',
  'birthday',
  'home_anniversary',
  'wedding_anniversary',
] as const;

const CreateContactsObject = Type.Composite([
  contactInput(false),
  Type.Object({
    contacts: Type.Optional(
      Type.Array(ContactInput, {
        minItems: 1,
        maxItems: MAX_CONTACTS_PER_REQUEST,
        description: `Bulk: up to ${MAX_CONTACTS_PER_REQUEST} contacts, all or nothing`,
      }),
    ),
  }),
]);
/**
 * One contact at the top level, or a bulk `contacts`. A bulk body's top level is not read, so the formats of
 * its fields apply only without `contacts` (if/else): stating them there would refuse bulk bodies that succeed.
 */
export const CreateContactsBody = Type.Unsafe<Static<typeof CreateContactsObject>>({
  ...CreateContactsObject,
  if: { required: ['contacts'] },
  else: { properties: Object.fromEntries(FORMATTED_FIELDS.map((field) => [field, ContactInput.properties[field]])) },
});
export type CreateContactsBody = Static<typeof CreateContactsBody>;

/**
 * `T | null` of the record, as `type: [T, 'null']`: fast-json-stringify serialises an anyOf by validating the value
 * against each branch, ~2 µs of every contact written (the record has 30 nullable fields), a type list by typeof.
 */
const OrNull = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type as string, 'null'] });
const NullableString = OrNull(Type.String());

/** An address as answered: every key of spec §2.7 present, null where unknown. */
const ContactAddressOut = Type.Object({
  city: NullableString,
  full: NullableString,
  name: NullableString,
  type: NullableString,
  extra: NullableString,
  line1: NullableString,
  line2: NullableString,
  state: NullableString,
  country: NullableString,
  postcode: NullableString,
});

export const ContactRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('contact'),
    display_name: Type.String(),
    partner_name: NullableString,
    brand: Uuid,
    brand_id: Uuid,
    user_id: OrNull(Uuid),
    sort_field: Type.String(),
    last_touch: OrNull(EpochSeconds),
    last_touch_action: NullableString,
    next_touch: OrNull(EpochSeconds),
    touch_freq: OrNull(Type.Integer()),
    ios_address_book_id: NullableString,
    android_address_book_id: NullableString,
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
    deleted_at: OrNull(EpochSeconds),
    created_for: NullableString,
    updated_for: NullableString,
    deleted_for: NullableString,
    title: NullableString,
    first_name: NullableString,
    partner_first_name: NullableString,
    middle_name: NullableString,
    last_name: NullableString,
    partner_last_name: NullableString,
    marketing_name: NullableString,
    nickname: NullableString,
    email: NullableString,
    primary_email: NullableString,
    emails: Type.Array(Type.String()),
    parked: Type.Boolean(),
    unsubscribed: Type.Boolean(),
    partner_email: NullableString,
    phone_number: NullableString,
    primary_phone_number: NullableString,
    phone_numbers: Type.Array(Type.String({ description: 'E.164' })),
    company: NullableString,
    birthday: NullableString,
    home_anniversary: NullableString,
    wedding_anniversary: NullableString,
    profile_image_url: NullableString,
    cover_image_url: NullableString,
    job_title: NullableString,
    source_type: Type.String(),
    source: NullableString,
    website: Type.Array(Type.String()),
    tags: Type.Array(Type.String()),
    address: Type.Array(ContactAddressOut),
    triggers: Type.Optional(Type.Array(TriggerRecord, { description: 'With associations[]=contact.triggers' })),
  },
  { title: 'Contact' },
);
export type ContactRecord = Static<typeof ContactRecord>;

/** POST /contacts answers one record for one contact, a list for a bulk body. */
export const CreateContactsResponse = Type.Object({
  code: Type.Literal('OK'),
  data: Type.Union([ContactRecord, Type.Array(ContactRecord)]),
  info: Type.Optional(Type.Object({ count: Type.Integer(), total: Type.Integer() })),
});

export const CONTACT_ORDER_KEYS = ['display_name', 'created_at', 'updated_at', 'last_touch'] as const;
export type ContactOrderKey = (typeof CONTACT_ORDER_KEYS)[number];

export const ListContactsQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'Words matched by prefix against names, emails, phone numbers and company',
    }),
  ),
  tags: Type.Optional(
    Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50, description: 'Contacts having any of these tags' }),
  ),
  order: Type.Optional(
    Type.String({
      maxLength: 40,
      pattern: orderPattern(CONTACT_ORDER_KEYS),
      description: `+ or - and one of ${CONTACT_ORDER_KEYS.join(', ')}; default +display_name (an unencoded + arrives as a space and means +)`,
    }),
  ),
  ...Paging,
  ...ExpansionQuery,
});
export type ListContactsQuery = Static<typeof ListContactsQuery>;

export const ContactParams = Type.Object({ id: Uuid });
export const ContactQuery = Type.Object({ ...ExpansionQuery });

export const DeleteContactsBody = Type.Object({
  ids: Type.Array(Uuid, { minItems: 1, maxItems: MAX_CONTACTS_PER_REQUEST }),
});

export const ContactTag = Type.Object({ type: Type.Literal('contact_tag'), tag: Type.String(), count: Type.Integer() });
