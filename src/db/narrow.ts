// Rows as their module reads them. The generated types (schema.generated.ts) give a JSON column the type Json and
// an enumerated one string; a repository hands its callers the module's own shapes (Narrowed, types.ts). The
// shapes are what the module's own writes and the migrations' checks put there: nothing is checked at run time.

/** `value` (a row, rows, or undefined) typed as the module reads it. */
export function narrowed<T>(value: unknown): T {
  return value as T;
}
