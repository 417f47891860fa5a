// What the JSON and enumerated columns of linked mailboxes hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.

export type SyncStatus = 'queued' | 'running' | 'succeeded' | 'failed';
