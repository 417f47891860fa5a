// A listing as search tests describe it (test/helpers/search-fixtures.ts stores them; the matching oracle and the
// random searches of saved-searches read them).
export interface ListingFixture {
  /** Stored as mls_number; tests compare result names. */
  name: string;
  /** [longitude, latitude] */
  at?: [number, number];
  content?: string;
  address?: string;
  /** Every other column, as stored. */
  [column: string]: unknown;
}
