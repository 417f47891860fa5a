// What the JSON and enumerated columns of email campaigns hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.

export type RecipientType = 'Email' | 'Contact' | 'Tag' | 'Brand';

/** One entry of `to` / `cc` / `bcc` as the client sent it. */
export interface RecipientSpec {
  recipient_type: RecipientType;
  email?: string;
  contact?: string;
  tag?: string;
  brand?: string;
}

export interface CampaignRecipients {
  to: RecipientSpec[];
  cc: RecipientSpec[];
  bcc: RecipientSpec[];
}
