// The topics of the domain-event outbox and the events each may carry (spec §6, decisions §17). A topic is
// what a brand webhook subscribes to; the event names what happened.

/** Actions of a contact's timeline: open strings of the form Contact<Verb><Object> (decisions §14). */
export type ActivityAction = `Contact${string}`;

export interface TopicEvents {
  Contacts: 'create' | 'update' | 'delete';
  Activities: ActivityAction;
  Deals: 'Created' | 'Updated' | 'Deleted';
  Showings: 'showing.created' | 'showing.updated';
  /** Account-security events of a brand's members, an audit trail only: not in TOPICS, so no webhook carries them. */
  Security: 'UserMfaReset';
}

export type Topic = keyof TopicEvents;

export const TOPICS = ['Contacts', 'Activities', 'Deals', 'Showings'] as const satisfies readonly Topic[];
