// How many webhook attempts a worker should run at once on the embedded database (one session that every
// query queues on): the webhooks bench in one process, as `gable serve` runs it embedded, once per setting.
//   node bin/run-ts.js bench/webhooks-embedded.run.ts [--concurrency 4,16,64] [--rate 500] [--seconds 5]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../src/config.js';
import { PGLITE_EXTENSIONS } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { closeDeps, createDeps, startJobs } from '../src/deps.js';
import { deliverTask } from '../src/modules/webhooks/webhooks.tasks.js';
import { benchWebhooks, printWebhookTable, type WebhookFigures } from './webhooks.bench.js';

const { values: args } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '4,16,64' },
    rate: { type: 'string', default: '500' },
    seconds: { type: 'string', default: '5' },
  },
});
const all: WebhookFigures[] = [];
for (const concurrency of args.concurrency.split(',').map(Number)) {
  // The setting under test, in place of the task's own (read when the workers start).
  Object.assign(deliverTask as { embeddedConcurrency?: number }, { embeddedConcurrency: concurrency });
  const dataDir = mkdtempSync(join(tmpdir(), 'gable-webhooks-embedded-'));
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  });
  const deps = await createDeps(config, { pglite, workers: true });
  try {
    await migrateToLatest(deps.db);
    await startJobs(deps);
    const { figures } = await benchWebhooks(deps, { rate: Number(args.rate), seconds: Number(args.seconds) });
    all.push(...figures.map((f) => ({ ...f, name: `[${concurrency} at once] ${f.name}` })));
  } finally {
    await closeDeps(deps);
    await pglite.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
printWebhookTable(all);
