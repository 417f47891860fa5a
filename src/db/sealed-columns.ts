// Which columns hold SecretBox-sealed values (lib/crypto.ts): each module names its own in its *.columns.ts, and
// the composition lists them all (cli/sealed-columns.ts) for `gable secrets rotate` and `gable doctor`
// (platform/secret-rotation.ts, the statements in sealed-columns.repository.ts).
import type { DB } from './types.js';

/** A table's columns that hold sealed values, and its key (a uuid primary key: batches walk it in order). */
export interface SealedColumns {
  readonly table: string;
  readonly key: string;
  readonly columns: readonly string[];
}

/** A `SealedColumns` whose names the compiler checks against the generated schema. */
export function sealedColumns<T extends keyof DB & string>(
  table: T,
  key: keyof DB[T] & string,
  columns: readonly (keyof DB[T] & string)[],
): SealedColumns {
  return { table, key, columns };
}
