// What the JSON and enumerated columns of contacts and their timeline hold. The generated database types
// (src/db/schema.generated.ts) leave them as Json and string; the repositories narrow the rows they read to these.

/** An address of a contact (spec §2.7): every key optional. */
export interface ContactAddress {
  city?: string | null;
  full?: string | null;
  name?: string | null;
  type?: string | null;
  extra?: string | null;
  line1?: string | null;
  line2?: string | null;
  state?: string | null;
  country?: string | null;
  postcode?: string | null;
}

/** A listing as an activity carries it (spec §6). */
export interface ActivityListing {
  id: string | null;
  mls: string | null;
  mls_number: string | null;
  status: string | null;
  price: number | null;
  address: string | null;
}
