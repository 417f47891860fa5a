// What the JSON and enumerated columns of triggers hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.

export const TRIGGER_EVENT_TYPES = ['birthday', 'home_anniversary', 'wedding_anniversary'] as const;

export type TriggerEventType = (typeof TRIGGER_EVENT_TYPES)[number];

export const TRIGGER_ACTIONS = ['schedule_email'] as const;

export type TriggerAction = (typeof TRIGGER_ACTIONS)[number];

export interface TriggerFailure {
  code: string;
  message: string;
}
