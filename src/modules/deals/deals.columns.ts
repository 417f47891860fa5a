// What the JSON and enumerated columns of deals hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.

/** A deal's context: key → typed value (deals.context.ts is the catalogue). */
export type DealContext = Record<string, string | number>;

export interface DealRoleValue {
  id: string;
  role: string;
  legal_first_name: string | null;
  legal_last_name: string | null;
  email: string | null;
  phone_number: string | null;
  contact: string | null;
  user: string | null;
  created_at: number;
}
