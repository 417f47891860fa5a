// The crash test: a real worker process with 1,000 deliveries in flight is killed with SIGKILL and
// started again; every delivery arrives at the loopback receiver, repeats carry the same webhook-id and body,
// none is lost. PostgreSQL: `gable worker`. Embedded: `gable serve` on the data directory (the embedded
// database is one process's; this test reads it only while no server runs).
import type { ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_SECRET_KEY } from '../../../test/helpers/app.js';
import { spawnGable } from '../../../test/helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { loadConfig } from '../../config.js';
import { PGLITE_EXTENSIONS } from '../../db/database.js';
import { closeDeps, createDeps, type Deps } from '../../deps.js';
import { firstStartSteps } from '../../bootstrap.js';
import { recordEvents, type DomainEvent } from '../../events/outbox.js';
import { Receiver } from './webhooks.test-support.js';

const DELIVERIES = 1000;
const dataDir = mkdtempSync(join(tmpdir(), 'gable-crash-'));
const receiver = new Receiver();
let database: TestDatabase | undefined;
let pglite: PGlite | undefined;

/** Deps on the test's database: PostgreSQL's copy, or a PGlite written to `dataDir` for the server to open. */
async function openDeps(): Promise<Deps> {
  const config = loadConfig({ DATA_DIR: dataDir, SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: 'silent', BASE_URL: 'http://gable.test', ...(database?.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}) });
  if (database?.databaseUrl) return createDeps(config);
  pglite = await PGlite.create({ dataDir: join(dataDir, 'pgdata'), extensions: PGLITE_EXTENSIONS });
  return createDeps(config, { pglite });
}

async function closeOpened(deps: Deps): Promise<void> {
  await closeDeps(deps);
  await pglite?.close();
  pglite = undefined;
}

/** The worker process: `gable worker` on PostgreSQL, `gable serve` (workers in-process) on the data directory. */
function startWorker(): ChildProcess {
  return spawnGable([database?.databaseUrl ? 'worker' : 'serve'], {
    SECRET_KEY: TEST_SECRET_KEY,
    LOG_LEVEL: 'silent',
    BASE_URL: 'http://gable.test',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    DATA_DIR: dataDir,
    PORT: '0',
    ...(database?.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
  });
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

async function deliveryRows(): Promise<{ id: string; status: string }[]> {
  const deps = await openDeps();
  try {
    return await deps.db.selectFrom('webhook_deliveries').select(['id', 'status']).execute();
  } finally {
    await closeOpened(deps);
  }
}

const delivered = async () => (await deliveryRows()).filter((r) => r.status === 'delivered').length;

/**
 * Runs the worker again until the database has every delivery delivered (the killed worker's attempts run
 * again once their jobs expire). PostgreSQL is read while the worker runs; the embedded database only
 * between runs of the server, which owns it while it runs.
 */
async function runUntilAllDelivered(): Promise<void> {
  if (database?.databaseUrl) {
    const worker = startWorker();
    try {
      await expect.poll(delivered, { timeout: 180_000, interval: 500 }).toBe(DELIVERIES);
    } finally {
      worker.kill('SIGTERM');
      await exited(worker);
    }
    return;
  }
  // A run outlasts the killed worker's job expiry (30 s) and pg-boss's maintenance, which looks for expired
  // jobs 30 s after a process starts.
  for (let run = 0; run < 5 && (await delivered()) < DELIVERIES; run++) {
    const worker = startWorker();
    await new Promise((resolve) => setTimeout(resolve, 50_000));
    worker.kill('SIGTERM');
    await exited(worker);
  }
}

beforeAll(async () => {
  await receiver.start();
  const source = inject('testDatabase');
  if (source.kind === 'pglite') {
    // The migrated template, written to the data directory the server will open.
    const seed = await PGlite.create({ dataDir: join(dataDir, 'pgdata'), loadDataDir: new Blob([readFileSync(source.dumpFile)]), extensions: PGLITE_EXTENSIONS });
    await seed.close();
  } else {
    database = await createTestDatabase();
  }
});

afterAll(async () => {
  await receiver.stop();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a worker killed with deliveries in flight', () => {
  it('delivers every one after a restart: repeats carry the same webhook-id and body, none is lost', { timeout: 360_000 }, async () => {
    const keyHex = randomBytes(32).toString('hex');
    const deps = await openDeps();
    try {
      const brand = (await createBrand(deps)).id;
      await deps.db
        .insertInto('brand_webhooks')
        .values({ brand, topic: 'Deals', url: receiver.url('/crash'), key_sealed: deps.secrets.encrypt(keyHex) })
        .execute();
      // The server's first start would load demo data: recorded as done, it starts at once.
      for (const step of firstStartSteps) await deps.db.insertInto('first_start_steps').values({ name: step.name, started_at: new Date(), completed_at: new Date() }).onConflict((oc) => oc.column('name').doNothing()).execute();
      const events: DomainEvent[] = Array.from({ length: DELIVERIES }, (_, i) => ({ brand, topic: 'Deals', event: 'Created', subject: brand, payload: { deal: { n: i } } }));
      await deps.db.transaction().execute((trx) => recordEvents(trx, events));
    } finally {
      await closeOpened(deps);
    }

    // Slow enough answers that many attempts are mid-request when the worker dies.
    receiver.respond = (_req, res) => void setTimeout(() => res.writeHead(204).end(), 25);
    const ids = () => new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));
    const first = await startWorker();
    await expect.poll(() => ids().size, { timeout: 120_000, interval: 20 }).toBeGreaterThanOrEqual(50);
    first.kill('SIGKILL');
    await exited(first);
    const killedAt = ids().size;
    expect(killedAt).toBeLessThan(DELIVERIES); // killed with deliveries still to make

    await runUntilAllDelivered();
    expect(ids().size).toBe(DELIVERIES);

    // Every request is a valid signed delivery; a repeat is the same delivery (same id, same body).
    const bodyOf = new Map<string, string>();
    for (const r of receiver.received) {
      expect(r.headers['x-rechat-signature']).toBe(createHmac('sha256', Buffer.from(keyHex, 'hex')).update(r.body).digest('hex'));
      const id = String(r.headers['webhook-id']);
      expect(bodyOf.get(id) ?? r.body).toBe(r.body);
      bodyOf.set(id, r.body);
    }
    const numbers = [...bodyOf.values()].map((b) => (JSON.parse(b) as { payload: { deal: { n: number } } }).payload.deal.n).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: DELIVERIES }, (_, i) => i));

    const rows = await deliveryRows();
    expect(rows).toHaveLength(DELIVERIES);
    expect(rows.filter((r) => r.status !== 'delivered')).toEqual([]);
    expect(new Set(rows.map((r) => r.id))).toEqual(ids());
  });
});
