// What the JSON and enumerated columns of notifications and pushes hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.

export type PushProvider = 'webpush' | 'fcm' | 'apns';

export type PushStatus = 'pending' | 'sent' | 'skipped' | 'dead_token' | 'failed' | 'dropped';
