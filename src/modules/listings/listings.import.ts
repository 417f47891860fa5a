// `gable import listings FILE`: NDJSON, one listing record per line, fed to the ingest service in batches of
// ~1,000 (one transaction each). A bad line (not JSON, or an invalid record) is reported by its line number and
// skipped; the rest is imported.
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ingestListings, type IngestDeps } from './listings.ingest.js';

export interface ImportProblem {
  line: number;
  mls_number: string | null;
  errors: Record<string, string[]>;
}

export interface ImportOptions {
  /** MLS of every record; without it each record must carry its own `mls`. */
  mls?: string;
  batchSize?: number;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  onProblem?: (problem: ImportProblem) => void;
}

export interface ImportOutcome {
  lines: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  events: number;
  seconds: number;
}

interface PendingRecord {
  line: number;
  record: unknown;
}

export async function importListingsFile(
  deps: IngestDeps,
  file: string,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  const started = performance.now();
  const totalBytes = statSync(file).size;
  const batchSize = options.batchSize ?? 1000;
  const outcome: ImportOutcome = { lines: 0, created: 0, updated: 0, unchanged: 0, failed: 0, events: 0, seconds: 0 };
  const problem = (found: ImportProblem) => {
    outcome.failed++;
    options.onProblem?.(found);
  };
  let pending: PendingRecord[] = [];
  let bytesRead = 0;

  const flush = async () => {
    const batch = pending;
    pending = [];
    // Records without --mls are grouped by their own mls: ingest writes one MLS at a time.
    const byMls = new Map<string, PendingRecord[]>();
    for (const entry of batch) {
      const mls = options.mls ?? recordMls(entry.record);
      if (!mls) {
        problem({ line: entry.line, mls_number: null, errors: { mls: ['is required (or pass --mls)'] } });
        continue;
      }
      byMls.set(mls, [...(byMls.get(mls) ?? []), entry]);
    }
    for (const [mls, entries] of byMls) {
      const result = await ingestListings(
        deps,
        mls,
        entries.map((entry) => entry.record),
      );
      outcome.created += result.created;
      outcome.updated += result.updated;
      outcome.unchanged += result.unchanged;
      outcome.events += result.events;
      for (const failure of result.failed)
        problem({ line: entries[failure.index]!.line, mls_number: failure.mls_number, errors: failure.errors });
    }
    options.onProgress?.(bytesRead, totalBytes);
  };

  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const text of lines) {
    outcome.lines++;
    bytesRead += Buffer.byteLength(text) + 1;
    if (text.trim() === '') continue;
    try {
      pending.push({ line: outcome.lines, record: JSON.parse(text) });
    } catch (error) {
      problem({ line: outcome.lines, mls_number: null, errors: { json: [(error as Error).message] } });
    }
    if (pending.length >= batchSize) await flush();
  }
  await flush();
  outcome.seconds = (performance.now() - started) / 1000;
  return outcome;
}

function recordMls(record: unknown): string | null {
  const mls = typeof record === 'object' && record !== null ? (record as Record<string, unknown>).mls : null;
  return typeof mls === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(mls) ? mls : null;
}
