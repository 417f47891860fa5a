// `gable seed listings`: synthetic listings written through the ingest service (same validation, derived
// columns and SQL as a real feed), in batches of 1,000. Deterministic for a seed: the same options give the
// same mls_numbers and records, so running it twice leaves the data unchanged.
import type { FirstStartStep } from '../../platform/feature.js';
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { ingestListings, type IngestDeps } from './listings.ingest.js';
import { METROS, type Metro } from './listings.places.js';
import { SeededRandom } from './listings.random.js';
import { DEFAULT_SEED_MLS } from './listings.seed-defaults.js';
import {
  agentsCarryTheirUsers,
  countListings,
  findSeedBoundary,
  linkUsersWithoutAgent,
  pointsInside,
  upsertAgentPool,
  type SeedBoundary,
} from './listings.seed.repository.js';
import { syntheticListing, syntheticName, type SyntheticPlace } from './listings.synthetic.js';

export interface SeedOptions {
  count: number;
  mls?: string;
  /** Boundary id or title: listings fall inside it; otherwise in the built-in metro areas. */
  within?: string;
  seed?: number;
  batchSize?: number;
  /** Batches written at once (PostgreSQL gains from 2; PGlite is one session anyway). */
  concurrency?: number;
  onProgress?: (written: number, total: number) => void;
  /** Photos served by this origin (the demo world's; listings.synthetic.ts), else addresses nothing serves. */
  photoOrigin?: string;
}

export interface SeedOutcome {
  mls: string;
  created: number;
  updated: number;
  unchanged: number;
  agents: number;
  linkedUsers: number;
  seconds: number;
}

export { DEFAULT_SEED_MLS };
const USERS_LINKED_AT_MOST = 5;

export async function seedListings(deps: IngestDeps, options: SeedOptions): Promise<SeedOutcome> {
  const started = performance.now();
  const mls = options.mls ?? DEFAULT_SEED_MLS;
  const seed = options.seed ?? 1;
  const batchSize = options.batchSize ?? 1000;
  const boundary = options.within ? await findSeedBoundary(deps.db, options.within) : undefined;
  if (options.within && !boundary) throw errors.notFound(`Boundary "${options.within}"`);

  const pool = agentPool(mls, seed, Math.round(Math.min(2000, Math.max(20, options.count / 200))));
  const agentIds = await upsertAgentPool(deps.db, mls, pool.agents);
  const linkedUsers = await linkUsersWithoutAgent(deps.db, agentIds.slice(0, USERS_LINKED_AT_MOST));
  await agentsCarryTheirUsers(deps.db, agentIds, deps.clock.now());
  const muis = pool.agents.map((agent) => agent.mls_unique_id);
  // "now" is fixed per day, so the same seed on the same day gives identical records (unchanged on re-run).
  const now = Math.floor(deps.clock.now().getTime() / 86_400_000) * 86_400;

  const totals = { created: 0, updated: 0, unchanged: 0 };
  let written = 0;
  const writeBatch = async (first: number) => {
    const size = Math.min(batchSize, options.count - first);
    // One PRNG per batch, seeded by (seed, batch): batches are independent, so they may run concurrently.
    const random = new SeededRandom(seed * 1_000_003 + first);
    const places = boundary
      ? await placesInBoundary(deps, boundary, random, size)
      : Array.from({ length: size }, () => placeInMetro(random, random.weighted(METROS)));
    const records = places.map((place, i) =>
      syntheticListing(random, place, {
        mls,
        mlsNumber: `S${seed}-${first + i}`,
        agents: muis,
        offices: pool.offices,
        now,
        ...(options.photoOrigin ? { photoOrigin: options.photoOrigin } : {}),
      }),
    );
    const result = await ingestListings(deps, mls, records, { events: false });
    if (result.failed.length > 0) throw new Error(`synthetic record rejected: ${JSON.stringify(result.failed[0])}`);
    totals.created += result.created;
    totals.updated += result.updated;
    totals.unchanged += result.unchanged;
    written += size;
    options.onProgress?.(written, options.count);
  };
  const starts = Array.from({ length: Math.ceil(options.count / batchSize) }, (_, i) => i * batchSize);
  const lanes = Math.max(1, options.concurrency ?? 1);
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = lane; i < starts.length; i += lanes) await writeBatch(starts[i]!);
    }),
  );
  return { mls, ...totals, agents: agentIds.length, linkedUsers, seconds: (performance.now() - started) / 1000 };
}

function agentPool(mls: string, seed: number, size: number) {
  const random = new SeededRandom(seed);
  const offices = Array.from({ length: Math.max(3, Math.round(size / 10)) }, (_, i) => `${mls}-O${i + 1}`);
  const agents = Array.from({ length: size }, (_, i) => {
    const name = syntheticName(random);
    return {
      mlsid: `A${i + 1}`,
      mls_unique_id: `${mls}-A${i + 1}`,
      first_name: name.first,
      last_name: name.last,
      office_mlsid: offices[i % offices.length]!,
      email: `${name.first}.${name.last}.${i + 1}@agents.gable.example`.toLowerCase(),
      phone_number: `+1555${String(1_000_000 + i).slice(-7)}`,
    };
  });
  return { agents, offices };
}

/** A uniform point in the metro's disc, with its city, ZIP and price level. */
function placeInMetro(random: SeededRandom, metro: Metro): SyntheticPlace {
  const distanceKm = metro.radiusKm * Math.sqrt(random.next());
  const angle = random.between(0, 2 * Math.PI);
  const latitude = metro.latitude + (distanceKm * Math.cos(angle)) / 111.32;
  const longitude =
    metro.longitude + (distanceKm * Math.sin(angle)) / (111.32 * Math.cos((metro.latitude * Math.PI) / 180));
  // Farther out is cheaper: up to −35 % at the edge of the area.
  const pricePerSquareMeter = metro.pricePerSquareMeter * (1 - 0.35 * (distanceKm / metro.radiusKm));
  return {
    longitude,
    latitude,
    city: metro.city,
    state: metro.state,
    postalCode: `${random.pick(metro.zipPrefixes)}${String(random.integer(1, 99)).padStart(2, '0')}`,
    pricePerSquareMeter,
  };
}

/** Rejection sampling in the boundary's bounding box; the containment test runs in SQL, a round at a time. */
async function placesInBoundary(
  deps: Pick<Deps, 'db'>,
  boundary: SeedBoundary,
  random: SeededRandom,
  size: number,
): Promise<SyntheticPlace[]> {
  const places: SyntheticPlace[] = [];
  const named = boundary.boundary_type === 'city' || boundary.boundary_type === 'neighborhood';
  for (let round = 0; places.length < size; round++) {
    if (round > 50) throw errors.badRequest(`Boundary "${boundary.title}" is too small to sample points in`);
    const candidates = Array.from({ length: Math.max(256, (size - places.length) * 2) }, () => ({
      x: random.between(boundary.minX, boundary.maxX),
      y: random.between(boundary.minY, boundary.maxY),
    }));
    for (const i of await pointsInside(deps.db, boundary.id, candidates)) {
      if (places.length === size) break;
      const point = candidates[i]!;
      // Near a known metro, the point takes its city, ZIP prefix and prices; elsewhere the boundary names it.
      const metro = METROS.reduce((best, candidate) =>
        distance(candidate, point) < distance(best, point) ? candidate : best,
      );
      const local = distance(metro, point) < 0.6;
      places.push({
        longitude: point.x,
        latitude: point.y,
        city: named || !local ? boundary.title : metro.city,
        state: boundary.state ?? (local ? metro.state : ''),
        postalCode:
          boundary.boundary_type === 'postal_code'
            ? boundary.title
            : `${local ? random.pick(metro.zipPrefixes) : String(random.integer(100, 999))}${String(random.integer(1, 99)).padStart(2, '0')}`,
        pricePerSquareMeter: local ? metro.pricePerSquareMeter : 1800,
      });
    }
  }
  return places;
}

const distance = (metro: Metro, point: { x: number; y: number }) =>
  Math.hypot(metro.longitude - point.x, metro.latitude - point.y);

/**
 * First start in embedded mode: a few thousand listings when there are none (after the demo users exist). The
 * seed is deterministic and upserts by mls_number, so a run cut short is finished by running it again.
 */
export const listingsStep: FirstStartStep = {
  name: 'demo-listings',
  isNeeded: async (deps) => (await countListings(deps.db)) === 0,
  run: seedListingsOnFirstStart,
};

async function seedListingsOnFirstStart(deps: Deps): Promise<void> {
  const outcome = await seedListings(deps, { count: FIRST_START_LISTINGS, photoOrigin: deps.config.baseUrl });
  deps.log.info(
    {
      listings: outcome.created,
      agents: outcome.agents,
      linked_users: outcome.linkedUsers,
      seconds: Math.round(outcome.seconds * 10) / 10,
    },
    'empty database: seeded synthetic listings (npx gable seed listings --help)',
  );
}

export const FIRST_START_LISTINGS = 3000;
