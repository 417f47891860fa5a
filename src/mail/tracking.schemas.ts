// Wire shapes of the tracking links and of the delivery-event feed (docs/mail.md).
import { Type, type Static } from '@sinclair/typebox';
import { Envelope } from '../platform/schemas.js';

/** `<ledger id>.<signature>` (tracking.ts). */
export const LinkParams = Type.Object({
  token: Type.String({ minLength: 38, maxLength: 80, pattern: '^[0-9a-fA-F-]{36}\\.[A-Za-z0-9_-]+$' }),
});
export const ClickQuery = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: 8192,
    description: 'The original link; it must be the one the token was signed for',
  }),
});
export const UnsubscribeBody = Type.Optional(
  Type.Object(
    { 'List-Unsubscribe': Type.Optional(Type.String({ maxLength: 100, description: 'RFC 8058 sends `One-Click`' })) },
    { additionalProperties: true },
  ),
);

export const MAX_FEED_EVENTS = 1000;

export const FeedEventSchema = Type.Object({
  type: Type.Union(
    [Type.Literal('delivered'), Type.Literal('bounced'), Type.Literal('failed'), Type.Literal('complained')],
    { description: '`bounced` counts as `failed`' },
  ),
  message_id: Type.String({
    minLength: 3,
    maxLength: 998,
    pattern: '^<?[^<>\\s]+@[^<>\\s]+>?$',
    description: 'The Message-ID header of the message, with or without `<>`',
  }),
  recipient: Type.Optional(
    Type.String({
      format: 'email',
      maxLength: 254,
      description: 'Whom the event is about (default: the message’s only recipient)',
    }),
  ),
  occurred_at: Type.Optional(
    Type.Number({ minimum: 0, maximum: 253402300799, description: 'Epoch seconds (default: when received)' }),
  ),
  reason: Type.Optional(
    Type.String({ maxLength: 2000, description: 'The provider’s diagnostic, kept with the event' }),
  ),
});

export const FeedBody = Type.Object(
  { events: Type.Array(FeedEventSchema, { minItems: 1, maxItems: MAX_FEED_EVENTS }) },
  {
    examples: [
      {
        events: [
          {
            type: 'delivered',
            message_id: '<0b5e4a3c-6f0e-4a3e-9f51-2a4b1c9d7e10@gable.example>',
            recipient: 'ann@example.com',
            occurred_at: 1764000000,
          },
        ],
      },
    ],
  },
);
export type FeedBody = Static<typeof FeedBody>;

export const FeedResponse = Envelope(
  Type.Object({
    recorded: Type.Integer({ description: 'Events new to the server' }),
    duplicates: Type.Integer({ description: 'Events it had already (a re-sent feed changes nothing)' }),
    unknown: Type.Integer({ description: 'Events naming a Message-ID this server did not send (skipped)' }),
  }),
);
