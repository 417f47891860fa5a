// What the JSON and enumerated columns of the mail ledger (mail_messages, mail_events) hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.

export type MailState = 'queued' | 'sending' | 'sent' | 'refused' | 'failed';

export type MailEventKind = 'opened' | 'clicked' | 'unsubscribed' | 'delivered' | 'failed' | 'complained';
