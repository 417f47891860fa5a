// Issue 35 at 10× the demo's contacts: the responsiveness scenario of the test suite (test/helpers/responsive-server.ts:
// a real `gable serve`, brand and contact triggers and two campaigns emailing every contact, /health and /users/self polled
// every 100 ms from another thread), on the embedded database and on PostgreSQL, one after the other. The baseline
// of each row is the same server in the second before its jobs start: the ratio is busy p99 / idle p99.
//   node bin/run-ts.js bench/responsiveness.run.ts [--contacts 3200] [--databases embedded,postgres]
// DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres); the bench creates
// and drops its own database there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  runResponsivenessScenario,
  SLOW_STATEMENT_MS,
  type ScenarioResult,
} from '../test/helpers/responsive-server.js';
import { DEFAULT_SERVER_URL, dropDatabase, recreateDatabase } from './lib/database.js';

const { values: args } = parseArgs({
  options: {
    contacts: { type: 'string', default: '3200' },
    databases: { type: 'string', default: 'embedded,postgres' },
  },
});
const contacts = Number(args.contacts);
const serverUrl = process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
const results: ScenarioResult[] = [];

for (const kind of args.databases.split(',')) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gable-bench-responsive-'));
  const name = 'gable_bench_responsive';
  try {
    const databaseUrl = kind === 'postgres' ? await recreateDatabase(serverUrl, name) : null;
    console.error(`${kind}: ${contacts} contacts…`);
    // 20 s per 1,000 emails beyond the first pass's wait: generous, the figure is how long they took.
    results.push(
      await runResponsivenessScenario({
        contacts,
        dataDir,
        databaseUrl,
        deadlineSeconds: 120 + (contacts / 1000) * 20,
      }),
    );
  } finally {
    if (kind === 'postgres') await dropDatabase(serverUrl, name);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows = results.map((r) => ({
  database: r.database,
  contacts: r.contacts,
  'emails (of)': `${r.emails} (${r.expectedEmails})`,
  'idle p50 / p99 ms': `${r.idle.p50} / ${r.idle.p99}`,
  'busy p50 / p99 / max ms': `${r.busy.p50} / ${r.busy.p99} / ${r.busy.max}`,
  '× idle p99': r.idle.p99 > 0 ? Number((r.busy.p99 / r.idle.p99).toFixed(1)) : null,
  'failed probes': r.busy.failed,
  'idle CPU s / 10 s': Number(r.idleCpuSeconds.toFixed(2)),
  'notifications (of)': `${r.agent.notifications} (${r.agent.expectedNotifications})`,
  're-planned (of)': `${r.agent.replanned} (${r.agent.triggers})`,
  'zone change ms': r.agent.zoneChangeMs,
}));
console.table(rows);
for (const r of results) {
  console.log(`${r.database}: statements of ${SLOW_STATEMENT_MS} ms or more, by work:`);
  for (const [work, seen] of Object.entries(r.slowStatements))
    console.log(`  ${work}: ${seen.count}, longest ${seen.maxMs} ms\n    ${seen.texts.join('\n    ')}`);
}
