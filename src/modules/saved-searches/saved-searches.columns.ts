// What the JSON and enumerated columns of saved searches hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.
import type { Criteria } from '../listings/index.js';

/** Stored criteria: normalized, without brands and boundaries (their own tables). */
export type StoredCriteria = Omit<Criteria, 'brands' | 'boundaries'>;
