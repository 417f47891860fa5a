// What the JSON and enumerated columns of listings hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.

export type ListingEventType = 'BecameAvailable' | 'PriceDropped' | 'StatusChanged';
