// Wire shapes of brand triggers (issue 10 item 4; docs/triggers.md).
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, Nullable, Uuid } from '../../platform/schemas.js';
import { MAX_WAIT_SECONDS } from './triggers.schemas.js';
import { TRIGGER_EVENT_TYPES } from './triggers.columns.js';

const EventType = Type.Union(TRIGGER_EVENT_TYPES.map((t) => Type.Literal(t)));

export const PutBrandTriggerBody = Type.Object(
  {
    wait_for: Type.Integer({
      minimum: -MAX_WAIT_SECONDS,
      maximum: MAX_WAIT_SECONDS,
      description: 'Seconds relative to the event (negative = before)',
    }),
    time: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 86399 }), Type.Null()], {
        description: 'Seconds after local midnight in your time zone (null = midnight)',
      }),
    ),
    subject: Type.String({
      minLength: 1,
      maxLength: 998,
      description: 'One line; Liquid variables allowed (`{{ contact.first_name }}`)',
    }),
    html: Type.String({ description: 'At most 2 MiB; Liquid variables are HTML-escaped' }),
  },
  {
    examples: [
      {
        wait_for: 0,
        time: 32400,
        subject: 'Happy birthday, {{ contact.first_name }}!',
        html: '<p>All the best from all of us.</p>',
      },
    ],
  },
);
export type PutBrandTriggerBody = Static<typeof PutBrandTriggerBody>;

export const BrandTriggerRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('brand_trigger'),
    brand: Uuid,
    event_type: Type.String(),
    user: { ...Uuid, description: 'Who sends, and whose time zone plans it: the last user who set it' },
    wait_for: Type.Integer(),
    time: Nullable(Type.Integer()),
    subject: Type.String(),
    html: Type.String(),
    enabled: Type.Boolean(),
    exclusions: Type.Array(Uuid, { description: 'Contacts it leaves out' }),
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
  },
  { title: 'Brand trigger' },
);
export type BrandTriggerRecord = Static<typeof BrandTriggerRecord>;

export const BrandParams = Type.Object({ brand: Uuid });
export const BrandEventParams = Type.Object({ brand: Uuid, event_type: EventType });
export const BrandTriggerParams = Type.Object({ brand: Uuid, id: Uuid });
export const ExclusionBody = Type.Object({ contact: Uuid });
export const ExclusionParams = Type.Object({ brand: Uuid, event_type: EventType, contact: Uuid });
