// Writing boundaries: the shipped catalogue (`gable seed boundaries`, first start) and imported files. One
// transaction per load, so a failed load leaves the catalogue as it was; idempotent by external_id.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { FirstStartStep } from '../../bootstrap.js';
import type { Deps } from '../../deps.js';
import { prepareBoundary, type BoundaryInput } from './boundaries.model.js';
import { analyzeBoundaries, countBoundaries, upsertBoundaries } from './boundaries.repository.js';
import { shippedBoundaries, type ShippedSelection } from './boundaries.shipped.js';

export type LoadProgress = (written: number, total: number) => void;

export async function loadBoundaries(db: Kysely<DB>, inputs: readonly BoundaryInput[], onProgress?: LoadProgress): Promise<number> {
  const prepared = inputs.map(prepareBoundary);
  onProgress?.(0, prepared.length);
  const written = await db.transaction().execute((trx) => upsertBoundaries(trx, prepared, (count) => onProgress?.(count, prepared.length)));
  await analyzeBoundaries(db);
  return written;
}

export async function seedShippedBoundaries(db: Kysely<DB>, selection: ShippedSelection = {}, onProgress?: LoadProgress): Promise<number> {
  return loadBoundaries(db, shippedBoundaries(selection), onProgress);
}

/** First start in embedded mode: the shipped catalogue, on a database without boundaries (one transaction). */
export const boundariesStep: FirstStartStep = {
  name: 'shipped-boundaries',
  isNeeded: async (deps) => (await countBoundaries(deps.db)) === 0,
  run: seedBoundariesOnFirstStart,
};

async function seedBoundariesOnFirstStart(deps: Deps): Promise<void> {
  const started = performance.now();
  const written = await seedShippedBoundaries(deps.db);
  deps.log.info({ boundaries: written, ms: Math.round(performance.now() - started) }, 'loaded the shipped boundaries (Natural Earth countries, US states and counties)');
}
