// Listing ingest throughput: N synthetic records (generated up front, not timed) through the ingest service in
// batches, as `POST /mls/:mls/listings` and `gable import listings` run them. Target: ≥ 5,000 listings/s on
// PostgreSQL. Run it with bench/listings-ingest.run.ts.
import { ingestListings, type IngestDeps } from '../src/modules/listings/listings.ingest.js';
import { METROS } from '../src/modules/listings/listings.places.js';
import { SeededRandom } from '../src/modules/listings/listings.random.js';
import { syntheticListing } from '../src/modules/listings/listings.synthetic.js';

export interface IngestBenchOptions {
  count: number;
  batchSize?: number;
  /** Batches in flight at once (each its own transaction on its own pooled connection). */
  concurrency?: number;
  mls?: string;
  /** Change every price by this factor (an update pass over the same mls_numbers). */
  priceFactor?: number;
  seed?: number;
}

export interface IngestBenchResult {
  listings: number;
  seconds: number;
  perSecond: number;
  created: number;
  updated: number;
  unchanged: number;
  events: number;
}

export function syntheticRecords(
  count: number,
  options: { mls: string; seed: number; priceFactor?: number },
): Record<string, unknown>[] {
  const random = new SeededRandom(options.seed);
  const agents = Array.from({ length: 500 }, (_, i) => `${options.mls}-A${i + 1}`);
  const offices = Array.from({ length: 50 }, (_, i) => `${options.mls}-O${i + 1}`);
  // a fixed "now" (2026-11-21): the same options give the same records, so a second pass is truly unchanged
  const now = 1_795_219_200;
  return Array.from({ length: count }, (_, i) => {
    const metro = random.weighted(METROS);
    const angle = random.between(0, 2 * Math.PI);
    const r = (metro.radiusKm / 111) * Math.sqrt(random.next());
    const place = {
      longitude: metro.longitude + r * Math.sin(angle),
      latitude: metro.latitude + r * Math.cos(angle),
      city: metro.city,
      state: metro.state,
      postalCode: `${metro.zipPrefixes[0]}01`,
      pricePerSquareMeter: metro.pricePerSquareMeter,
    };
    const record = syntheticListing(random, place, { mls: options.mls, mlsNumber: `B${i}`, agents, offices, now });
    if (options.priceFactor && typeof record.price === 'number')
      record.price = Math.round(record.price * options.priceFactor);
    return record;
  });
}

export async function benchListingIngest(deps: IngestDeps, options: IngestBenchOptions): Promise<IngestBenchResult> {
  const mls = options.mls ?? 'BENCH';
  const batchSize = options.batchSize ?? 1000;
  const records = syntheticRecords(options.count, {
    mls,
    seed: options.seed ?? 42,
    ...(options.priceFactor ? { priceFactor: options.priceFactor } : {}),
  });
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < records.length; i += batchSize) batches.push(records.slice(i, i + batchSize));
  const totals = { created: 0, updated: 0, unchanged: 0, events: 0 };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency ?? 1 }, async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        const result = await ingestListings(deps, mls, batch);
        if (result.failed.length > 0) throw new Error(`bench record rejected: ${JSON.stringify(result.failed[0])}`);
        totals.created += result.created;
        totals.updated += result.updated;
        totals.unchanged += result.unchanged;
        totals.events += result.events;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { listings: records.length, seconds, perSecond: records.length / seconds, ...totals };
}

/**
 * The same through HTTP: `POST /mls/:mls/listings` with 1,000-record bodies to a listening server (`url`), JSON
 * parsing, the network and the response included.
 */
export async function benchListingIngestHttp(
  url: string,
  accessToken: string,
  options: IngestBenchOptions,
): Promise<IngestBenchResult> {
  const mls = options.mls ?? 'BENCHHTTP';
  const batchSize = options.batchSize ?? 1000;
  const records = syntheticRecords(options.count, { mls, seed: options.seed ?? 43 });
  const bodies: string[] = [];
  for (let i = 0; i < records.length; i += batchSize) bodies.push(JSON.stringify(records.slice(i, i + batchSize)));
  const totals = { created: 0, updated: 0, unchanged: 0, events: 0 };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency ?? 1 }, async () => {
      while (next < bodies.length) {
        const payload = bodies[next++]!;
        const res = await fetch(new URL(`/mls/${mls}/listings`, url), {
          method: 'POST',
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
          body: payload,
        });
        if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
        const { data } = (await res.json()) as { data: IngestBenchResult };
        totals.created += data.created;
        totals.updated += data.updated;
        totals.unchanged += data.unchanged;
        totals.events += data.events;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { listings: records.length, seconds, perSecond: records.length / seconds, ...totals };
}
