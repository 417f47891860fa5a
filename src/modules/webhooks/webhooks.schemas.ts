// Wire shapes of brand webhooks (spec §2.9, §4.7; decisions §9; docs/webhooks.md).
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, PagingQuery, Uuid } from '../../platform/schemas.js';
import { TOPICS } from '../../events/topics.js';

export const MAX_URL_LENGTH = 2048;

export const WebhookTopic = Type.Union(
  TOPICS.map((topic) => Type.Literal(topic)),
  { description: 'Deals, Showings, Contacts, or Activities (deprecated: answers with a Deprecation header)' },
);
export type WebhookTopic = Static<typeof WebhookTopic>;

export const CreateWebhookBody = Type.Object({
  topic: WebhookTopic,
  url: Type.String({
    minLength: 1,
    maxLength: MAX_URL_LENGTH,
    description:
      'http(s), no credentials; must resolve to a public address. Stored and shown in canonical form (WHATWG URL `href`): the address the deliveries call',
  }),
});
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const BrandParams = Type.Object({ id: Uuid });
export const WebhookParams = Type.Object({ id: Uuid, wid: Uuid });

export const ListWebhooksQuery = Type.Object({ topic: Type.Optional(WebhookTopic), ...PagingQuery });
export type ListWebhooksQuery = Static<typeof ListWebhooksQuery>;

export const WebhookRecord = Type.Object({
  id: Uuid,
  created_at: EpochSeconds,
  updated_at: EpochSeconds,
  deleted_at: Nullable(EpochSeconds),
  brand: Uuid,
  topic: Type.String(),
  url: Type.String(),
  tags: Nullable(Type.Array(Type.String())),
  disabled_at: Nullable({
    ...EpochSeconds,
    description: 'Set when the receiver answered 410 or failed for 5 days; deliveries stop until enabled again',
  }),
  disabled_reason: Nullable(Type.String()),
  type: Type.Literal('brand_webhook'),
});
export type WebhookRecord = Static<typeof WebhookRecord>;

export const CreateWebhookResponse = Type.Object({
  code: Type.Literal('OK'),
  data: WebhookRecord,
  info: Type.Object({
    key: Type.String({ description: 'The signing key as 64 hex characters: shown only in this answer' }),
    secret: Type.String({ description: 'The same key as whsec_<base64>, for Standard Webhooks libraries' }),
  }),
});
