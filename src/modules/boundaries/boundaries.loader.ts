// Writing boundaries: the shipped catalogue (`gable seed boundaries`, first start) and imported files. One
// transaction per load, so a failed load leaves the catalogue as it was; idempotent by external_id.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { FirstStartStep } from '../../platform/feature.js';
import type { Deps } from '../../platform/deps.js';
import { prepareBoundary, type BoundaryInput } from './boundaries.model.js';
import { lacksPopulation, setPopulations, shippedPopulations } from './boundaries.populations.js';
import { analyzeBoundaries, countBoundaries, upsertBoundaries } from './boundaries.repository.js';
import { shippedBoundaries, type ShippedSelection } from './boundaries.shipped.js';

export type LoadProgress = (written: number, total: number) => void;

export interface LoadOptions {
  onProgress?: LoadProgress | undefined;
  /** More writes in the load's transaction, after the boundaries. */
  alsoInTransaction?: (trx: Kysely<DB>) => Promise<unknown>;
}

export async function loadBoundaries(
  db: Kysely<DB>,
  inputs: readonly BoundaryInput[],
  options: LoadOptions = {},
): Promise<number> {
  const { onProgress, alsoInTransaction } = options;
  const prepared = inputs.map(prepareBoundary);
  onProgress?.(0, prepared.length);
  const written = await db.transaction().execute(async (trx) => {
    const count = await upsertBoundaries(trx, prepared, (done) => onProgress?.(done, prepared.length));
    await alsoInTransaction?.(trx);
    return count;
  });
  await analyzeBoundaries(db);
  return written;
}

export interface SeedResult {
  boundaries: number;
  /** boundaries whose population the shipped figures set (those with one already keep it) */
  populationsSet: number;
}

/** The shipped catalogue and, in the same transaction, the shipped populations where none is known. */
export async function seedShippedBoundaries(
  db: Kysely<DB>,
  selection: ShippedSelection = {},
  onProgress?: LoadProgress,
): Promise<SeedResult> {
  const populations = shippedPopulations();
  let populationsSet = 0;
  const boundaries = await loadBoundaries(db, shippedBoundaries(selection), {
    onProgress,
    alsoInTransaction: async (trx) =>
      (populationsSet = (await setPopulations(trx, populations, { onlyUnknown: true })).size),
  });
  return { boundaries, populationsSet };
}

/** First start in embedded mode: the shipped catalogue, on a database without boundaries (one transaction). */
export const boundariesStep: FirstStartStep = {
  name: 'shipped-boundaries',
  isNeeded: async (deps) => (await countBoundaries(deps.db)) === 0,
  run: seedBoundariesOnFirstStart,
};

async function seedBoundariesOnFirstStart(deps: Deps): Promise<void> {
  const started = performance.now();
  const { boundaries, populationsSet } = await seedShippedBoundaries(deps.db);
  deps.log.info(
    { boundaries, populations: populationsSet, ms: Math.round(performance.now() - started) },
    'loaded the shipped boundaries (Natural Earth countries, US states and counties with Census 2019 populations)',
  );
}

/**
 * A data directory whose boundaries an older server loaded without populations gets the shipped ones at its next
 * start (only where none is known). On a fresh one the boundaries step has set them, so this is skipped.
 */
export const populationsStep: FirstStartStep = {
  name: 'shipped-populations',
  isNeeded: async (deps) =>
    lacksPopulation(
      deps.db,
      shippedPopulations().map((row) => row.externalId),
    ),
  run: async (deps) => {
    const set = await deps.db
      .transaction()
      .execute((trx) => setPopulations(trx, shippedPopulations(), { onlyUnknown: true }));
    deps.log.info({ populations: set.size }, 'set the shipped Census 2019 populations of US states and counties');
  },
};
