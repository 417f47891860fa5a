// Wire shapes of triggers (spec 2.6, 4.5; decisions §7; docs/triggers.md).
import { Type, type Static } from '@sinclair/typebox';
import { EpochSeconds, ExpansionQuery, Nullable, PagingQuery, Uuid, optionalNullable } from '../../platform/schemas.js';
import { EmailCampaignRecord } from '../emails/emails.schemas.js';
import { TRIGGER_ACTIONS, TRIGGER_EVENT_TYPES } from './triggers.columns.js';

/** A year either way: further, "the next occurrence" of a yearly date would be ambiguous. */
export const MAX_WAIT_SECONDS = 365 * 86400;

const EventType = Type.Union(
  TRIGGER_EVENT_TYPES.map((t) => Type.Literal(t)),
  { description: 'The contact’s date the trigger follows' },
);
const Action = Type.Union(TRIGGER_ACTIONS.map((a) => Type.Literal(a)));
const WaitFor = Type.Integer({
  minimum: -MAX_WAIT_SECONDS,
  maximum: MAX_WAIT_SECONDS,
  description: 'Seconds relative to the event (negative = before), at most a year either way',
});
const Time = Type.Integer({
  minimum: 0,
  maximum: 86399,
  description: 'Seconds after local midnight in the trigger user’s time zone (null = midnight)',
});

export const CreateTriggerBody = Type.Object(
  {
    user: Type.Optional({
      ...Uuid,
      description: 'Whose time zone plans it and who sends (default: you); a member of the brand',
    }),
    event_type: EventType,
    action: Action,
    wait_for: WaitFor,
    time: optionalNullable(Time),
    recurring: Type.Optional(Type.Boolean({ description: 'Plan next year’s trigger when this one executes' })),
    campaign: { ...Uuid, description: 'An email campaign of the brand: the template copied for the contact' },
    contact: { ...Uuid, description: 'A contact of the brand that has the event’s date' },
  },
  {
    examples: [
      {
        event_type: 'birthday',
        action: 'schedule_email',
        wait_for: -86400,
        time: 32400,
        recurring: true,
        campaign: '00000000-0000-4000-8000-000000000001',
        contact: '00000000-0000-4000-8000-000000000002',
      },
    ],
  },
);
export type CreateTriggerBody = Static<typeof CreateTriggerBody>;

export const UpdateTriggerBody = Type.Object({
  user: Type.Optional(Uuid),
  event_type: Type.Optional(EventType),
  wait_for: Type.Optional(WaitFor),
  time: optionalNullable(Time),
  recurring: Type.Optional(Type.Boolean()),
  campaign: Type.Optional(Uuid),
});
export type UpdateTriggerBody = Static<typeof UpdateTriggerBody>;

export const TriggerFailure = Type.Object({ code: Type.String(), message: Type.String() });

export const TriggerRecord = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('trigger'),
    created_at: EpochSeconds,
    updated_at: EpochSeconds,
    deleted_at: Nullable(EpochSeconds),
    executed_at: Nullable(EpochSeconds),
    failed_at: Nullable(EpochSeconds),
    effective_at: { ...EpochSeconds, description: 'When it fires (or fired)' },
    user: Uuid,
    created_by: Uuid,
    brand: Uuid,
    event_type: Type.String(),
    action: Type.String(),
    wait_for: Type.Integer(),
    time: Nullable(Type.Integer()),
    recurring: Type.Boolean(),
    failure: Nullable(TriggerFailure),
    contact: Uuid,
    campaign: Type.Union([Uuid, EmailCampaignRecord], {
      description: 'The template campaign’s id; the campaign itself with associations[]=trigger.campaign',
    }),
    sent_campaign: Nullable({ ...Uuid, description: 'The campaign executing the trigger scheduled for the contact' }),
    flow_step: Type.Null(),
    brand_event: Type.Null(),
    scheduled_after: Nullable({ ...Uuid, description: 'The previous trigger of a recurring chain' }),
    origin: Type.Null(),
  },
  { title: 'Trigger' },
);
export type TriggerRecord = Static<typeof TriggerRecord>;

export const TriggerParams = Type.Object({ id: Uuid });
export const AssociationsQuery = Type.Object({ ...ExpansionQuery });
export type AssociationsQuery = Static<typeof AssociationsQuery>;

export const FilterTriggersQuery = Type.Object({
  event_types: Type.Optional(Type.Array(EventType, { maxItems: TRIGGER_EVENT_TYPES.length })),
  actions: Type.Optional(Type.Array(Action, { maxItems: TRIGGER_ACTIONS.length })),
  contacts: Type.Optional(Type.Array(Uuid, { maxItems: 100 })),
  ...PagingQuery,
  ...ExpansionQuery,
});
export type FilterTriggersQuery = Static<typeof FilterTriggersQuery>;
