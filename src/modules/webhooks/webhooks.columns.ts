// What the JSON and enumerated columns of webhook deliveries hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped';
