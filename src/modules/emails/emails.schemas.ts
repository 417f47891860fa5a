// Wire shapes of email campaigns (spec 2.6 "Email campaign", decisions §7, §15; docs/emails.md).
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, PagingQuery, Uuid, optionalNullable } from '../../platform/schemas.js';

export const MAX_HTML_BYTES = 2 * 1024 * 1024;
export const MAX_RECIPIENT_ENTRIES = 1000;
export const MAX_HEADERS = 50;

export const RECIPIENT_TYPES = ['Email', 'Contact', 'Tag', 'Brand'] as const;

export const Recipient = Type.Object(
  {
    recipient_type: Type.Union(
      RECIPIENT_TYPES.map((t) => Type.Literal(t)),
      {
        description:
          'Email: `email`; Contact: `contact` (its primary email); Tag: every contact of the brand with `tag`; Brand: every member of `brand` and its sub-brands',
      },
    ),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    contact: Type.Optional(Uuid),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    brand: Type.Optional(Uuid),
  },
  { examples: [{ recipient_type: 'Email', email: 'client@example.com' }] },
);
export type Recipient = Static<typeof Recipient>;

const Recipients = Type.Array(Recipient, { maxItems: MAX_RECIPIENT_ENTRIES });
const Headers = Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.String({ maxLength: 2000 }), {
  description: `Extra message headers (at most ${MAX_HEADERS}); names are RFC 5322 field names, values one line; the headers the server sets (From, To, Subject, Message-ID, List-Unsubscribe, …) cannot be overridden`,
});

const CampaignFields = {
  subject: Type.String({
    minLength: 1,
    maxLength: 998,
    description: 'One line; Liquid variables allowed (`{{ contact.first_name }}`)',
  }),
  html: Type.String({ description: 'At most 2 MiB; Liquid variables are HTML-escaped' }),
  text: optionalNullable(Type.String({ description: 'Plain-text part; derived from html when absent' })),
  due_at: optionalNullable({ ...EpochSeconds, description: 'When to send (epoch seconds); null or a past time = now' }),
  include_signature: Type.Optional(Type.Boolean({ description: 'Append the sender’s email_signature' })),
  individual: Type.Optional(
    Type.Boolean({ description: 'One message per recipient, personalised; otherwise one message to everyone' }),
  ),
  headers: Type.Optional(Headers),
  to: Type.Optional(Recipients),
  cc: Type.Optional(Recipients),
  bcc: Type.Optional(Recipients),
  notifications_enabled: Type.Optional(Type.Boolean()),
  archive: Type.Optional(Type.Boolean()),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 })),
  extmail_credential: optionalNullable({
    ...Uuid,
    description:
      'Send from this linked mailbox of yours (it needs Mail.Send) through Microsoft Graph instead of SMTP (docs/extmail.md)',
  }),
};

export const CreateCampaignBody = Type.Object(CampaignFields, {
  examples: [
    {
      subject: 'Hello {{ contact.first_name }}',
      html: '<p>Hi {{ contact.first_name }}</p>',
      individual: true,
      to: [{ recipient_type: 'Email', email: 'client@example.com' }],
    },
  ],
});
export type CreateCampaignBody = Static<typeof CreateCampaignBody>;

export const UpdateCampaignBody = Type.Partial(Type.Object(CampaignFields));
export type UpdateCampaignBody = Static<typeof UpdateCampaignBody>;

const Count = Type.Integer({ minimum: 0 });

export const EmailCampaignRecord = Type.Object({
  id: Uuid,
  type: Type.Literal('email_campaign'),
  created_at: EpochSeconds,
  updated_at: EpochSeconds,
  deleted_at: Nullable(EpochSeconds),
  created_by: Uuid,
  brand: Uuid,
  subject: Type.String(),
  include_signature: Type.Boolean(),
  html: Type.String(),
  text: Nullable(Type.String()),
  due_at: EpochSeconds,
  executed_at: Nullable(EpochSeconds),
  individual: Type.Boolean(),
  sent: Count,
  accepted: Count,
  rejected: Count,
  delivered: Count,
  failed: Count,
  opened: Count,
  clicked: Count,
  unsubscribed: Count,
  complained: Count,
  stored: Count,
  headers: Type.Record(Type.String(), Type.String()),
  to: Type.Array(Recipient),
  cc: Type.Array(Recipient),
  bcc: Type.Array(Recipient),
  google_credential: Type.Null(),
  extmail_credential: Nullable(Uuid),
  thread_key: Type.Null(),
  failed_at: Nullable(EpochSeconds),
  failed_within: Type.Null(),
  failure: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  notifications_enabled: Type.Boolean(),
  archive: Type.Boolean(),
  tags: Type.Array(Type.String()),
  recipients_count: Nullable(Count),
  listed: Type.Boolean(),
});
export type EmailCampaignRecord = Static<typeof EmailCampaignRecord>;

export const CampaignParams = Type.Object({ id: Uuid });
export const BrandParams = Type.Object({ brand: Uuid });
export const ListCampaignsQuery = Type.Object({ ...PagingQuery });
export type ListCampaignsQuery = Static<typeof ListCampaignsQuery>;
