// Measures listing ingest on a fresh PostgreSQL database (created and dropped here):
//   node bin/run-ts.js bench/listings-ingest.run.ts [--count 50000] [--concurrency 1,2]
// DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres).
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { closeDeps, createDeps, startJobs } from '../src/deps.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { DEFAULT_SERVER_URL, dropDatabase, recreateDatabase } from './lib/database.js';
import { buildApp } from '../src/app.js';
import { createOAuthClient } from '../src/modules/auth/clients.service.js';
import { issueNewFamily } from '../src/modules/auth/tokens.service.js';
import { benchListingIngest, benchListingIngestHttp } from './listings-ingest.bench.js';

const { values: args } = parseArgs({
  options: { count: { type: 'string', default: '50000' }, concurrency: { type: 'string', default: '1,2' } },
});
const count = Number(args.count);
const serverUrl = process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
const name = 'gable_bench_ingest';

console.log('| pass | concurrency | listings | seconds | listings/s | created | updated | unchanged | events |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const concurrency of args.concurrency.split(',').map(Number)) {
  const databaseUrl = await recreateDatabase(serverUrl, name);
  const deps = await createDeps(
    loadConfig({ DATABASE_URL: databaseUrl, SECRET_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn' }),
  );
  try {
    await migrateToLatest(deps.db);
    // ingest enqueues saved-search matching with its events
    await startJobs(deps);
    const passes = [
      ['insert (new listings, events)', {}],
      ['same records again (unchanged)', {}],
      ['every price −5 % (updates + PriceDropped)', { priceFactor: 0.95 }],
    ] as const;
    for (const [label, extra] of passes) {
      const r = await benchListingIngest(deps, { count, concurrency, ...extra });
      console.log(
        `| ${label} | ${concurrency} | ${r.listings} | ${r.seconds.toFixed(1)} | ${Math.round(r.perSecond)} | ${r.created} | ${r.updated} | ${r.unchanged} | ${r.events} |`,
      );
    }
    const app = await buildApp(deps);
    const client = await createOAuthClient(deps.db, { name: 'bench feed', kind: 'first_party', redirectUris: [] });
    const token = await issueNewFamily(deps.db, deps.clock, {
      user: null,
      client: client.id,
      brand: null,
      grantType: 'client_credentials',
      mfaValidated: false,
      withRefreshToken: false,
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const r = await benchListingIngestHttp(url, token.access_token, { count, concurrency });
    console.log(
      `| HTTP POST /mls/:mls/listings (new listings, events) | ${concurrency} | ${r.listings} | ${r.seconds.toFixed(1)} | ${Math.round(r.perSecond)} | ${r.created} | ${r.updated} | ${r.unchanged} | ${r.events} |`,
    );
    await app.close();
  } finally {
    await closeDeps(deps);
    await dropDatabase(serverUrl, name);
  }
}
