// Wire shapes of leads (decisions §14): the WordPress plugin's `POST /leads` body, the flat body of the public
// capture endpoint, and lead channels. Lead text goes through the same checks as a contact's.
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, Uuid, optionalNullable as optional } from '../../platform/schemas.js';
import { Paging } from './contacts.schemas.js';
import { ActivityListingInput } from './timeline.schemas.js';

const Text = (maxLength: number) => Type.String({ maxLength });

const Assignee = Type.Union([
  Type.String({ maxLength: 254, description: 'A user id or email' }),
  Type.Object(
    {
      first_name: optional(Text(200)),
      last_name: optional(Text(200)),
      email: optional(Text(254)),
      phone_number: optional(Text(40)),
    },
    { additionalProperties: false },
  ),
]);

export const LeadFields = {
  first_name: optional(Text(200)),
  last_name: optional(Text(200)),
  // Read trimmed, blank meaning none (leads.service.ts), with the checks of contacts (platform/validation.ts).
  email: optional(Type.String({ maxLength: 254, format: 'email-or-blank' })),
  phone_number: optional(Type.String({ maxLength: 40, format: 'phone-number-or-blank' })),
  source_type: optional(Text(100)),
  lead_source: optional(Text(500)),
  note: optional(Text(5000)),
  tag: optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 })),
  listing_id: optional(Text(100)),
  mlsid: optional(Text(100)),
  referer_url: optional(Text(2048)),
  assignees: optional(Type.Array(Assignee, { maxItems: 20 })),
};

export const LeadBody = Type.Object(LeadFields, { additionalProperties: false });
export type LeadBody = Static<typeof LeadBody>;

/** POST /leads, as the WordPress plugin sends it. */
export const PostLeadBody = Type.Object({
  metadata: Type.Optional(Type.Object({ lead_channel: optional(Uuid) })),
  lead: LeadBody,
});
export type PostLeadBody = Static<typeof PostLeadBody>;

/** POST /leads/channels/:channel/webhook: the flat lead of the published lead-capture API. */
export const WebhookLeadBody = Type.Object(
  { ...LeadFields, listing: optional(ActivityListingInput) },
  { additionalProperties: false },
);
export type WebhookLeadBody = Static<typeof WebhookLeadBody>;

export const ChannelParams = Type.Object({ channel: Uuid });
export const BrandParams = Type.Object({ brand: Uuid });
export const ChannelsQuery = Type.Object({ ...Paging });

export const CreateChannelBody = Type.Object({
  title: optional(Text(200)),
  source_type: optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'source_type of the contacts its leads create; default Website',
    }),
  ),
});
export type CreateChannelBody = Static<typeof CreateChannelBody>;

export const LeadChannelRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('lead_channel'),
    brand: Uuid,
    user: Nullable(Uuid),
    title: Nullable(Type.String()),
    source_type: Type.String(),
    capture_count: Type.Integer(),
    last_capture_at: Nullable(EpochSeconds),
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
    deleted_at: Nullable(EpochSeconds),
  },
  { title: 'LeadChannel' },
);
export type LeadChannelRecord = Static<typeof LeadChannelRecord>;
