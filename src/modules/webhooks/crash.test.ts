// The crash test: a real worker process with 1,000 deliveries in flight is killed with SIGKILL and
// started again; every delivery arrives at the loopback receiver, repeats carry the same webhook-id and body,
// none is lost. PostgreSQL: `gable worker`. Embedded: `gable serve` on the data directory (the embedded
// database is one process's; this test reads it only while no server runs).
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exited, useCrashHarness } from '../../../test/helpers/crash.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { firstStartSteps } from '../../bootstrap.js';
import { completeStep } from '../../db/first-start.repository.js';
import { recordEvents, type DomainEvent } from '../../events/outbox.js';
import { Receiver } from '../../../test/helpers/webhooks.js';

const DELIVERIES = 1000;
const receiver = new Receiver();
const harness = useCrashHarness({ env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } });
const { withDatabase, startWorker } = harness;
const embedded = inject('testDatabase').kind === 'pglite';

const deliveryRows = () =>
  withDatabase((deps) => deps.db.selectFrom('webhook_deliveries').select(['id', 'status']).execute());
const delivered = async () => (await deliveryRows()).filter((r) => r.status === 'delivered').length;

/**
 * Runs the worker again until the database has every delivery delivered (the killed worker's attempts run
 * again once their jobs expire). PostgreSQL is read while the worker runs; the embedded database only
 * between runs of the server, which owns it while it runs.
 */
async function runUntilAllDelivered(): Promise<void> {
  if (!embedded) {
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

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

describe('a worker killed with deliveries in flight', () => {
  it(
    'delivers every one after a restart: repeats carry the same webhook-id and body, none is lost',
    { timeout: 360_000 },
    async () => {
      const keyHex = randomBytes(32).toString('hex');
      await withDatabase(async (deps) => {
        const brand = (await createBrand(deps)).id;
        await deps.db
          .insertInto('brand_webhooks')
          .values({ brand, topic: 'Deals', url: receiver.url('/crash'), key_sealed: deps.secrets.encrypt(keyHex) })
          .execute();
        // The server's first start would load demo data: recorded as done, it starts at once.
        for (const step of firstStartSteps) await completeStep(deps.db, step.name, new Date());
        const events: DomainEvent[] = Array.from({ length: DELIVERIES }, (_, i) => ({
          brand,
          topic: 'Deals',
          event: 'Created',
          subject: brand,
          payload: { deal: { n: i } },
        }));
        await deps.db.transaction().execute((trx) => recordEvents(trx, events));
      });

      // Slow enough answers that many attempts are mid-request when the worker dies.
      receiver.respond = (_req, res) => void setTimeout(() => res.writeHead(204).end(), 25);
      const ids = () => new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));
      const first = startWorker();
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
        expect(r.headers['x-rechat-signature']).toBe(
          createHmac('sha256', Buffer.from(keyHex, 'hex')).update(r.body).digest('hex'),
        );
        const id = String(r.headers['webhook-id']);
        expect(bodyOf.get(id) ?? r.body).toBe(r.body);
        bodyOf.set(id, r.body);
      }
      const numbers = [...bodyOf.values()]
        .map((b) => (JSON.parse(b) as { payload: { deal: { n: number } } }).payload.deal.n)
        .sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: DELIVERIES }, (_, i) => i));

      const rows = await deliveryRows();
      expect(rows).toHaveLength(DELIVERIES);
      expect(rows.filter((r) => r.status !== 'delivered')).toEqual([]);
      expect(new Set(rows.map((r) => r.id))).toEqual(ids());
    },
  );
});
