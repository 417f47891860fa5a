// Build first when src/ changed since the last build: the tests that run `gable` in a child process run the
// compiled dist/, as production does (a no-op build costs one node start; after an edit, the incremental tsc).
// Migrate once per run: into a template database on PostgreSQL (DATABASE_URL), or into a PGlite whose data
// directory is dumped to a file. Each test file then gets its own copy (test/helpers/database.ts).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase, PGLITE_EXTENSIONS } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';

export type TestDatabaseSource =
  { kind: 'postgres'; url: string; template: string; prefix: string } | { kind: 'pglite'; dumpFile: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseSource;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ['scripts/build.js', '--if-stale'], { stdio: 'inherit' });
  const url = process.env.DATABASE_URL;
  if (url) {
    const prefix = `gable_t${randomBytes(3).toString('hex')}`;
    const template = `${prefix}_template`;
    await adminQuery(url, `create database ${template}`);
    const database = await openDatabase({ databaseUrl: withDatabase(url, template), dataDir: '', poolSize: 2 });
    await migrateToLatest(database.db);
    await database.close();
    project.provide('testDatabase', { kind: 'postgres', url, template, prefix });
    return async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`${prefix}%`],
      );
      for (const row of rows) await client.query(`drop database if exists ${row.datname} with (force)`);
      await client.end();
    };
  }
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const database = await openDatabase({ databaseUrl: null, dataDir: '', pglite });
  await migrateToLatest(database.db);
  const dump = await pglite.dumpDataDir('none');
  await database.close();
  await pglite.close();
  const dir = mkdtempSync(join(tmpdir(), 'gable-test-'));
  const dumpFile = join(dir, 'template.tar');
  writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  project.provide('testDatabase', { kind: 'pglite', dumpFile });
  return async () => rmSync(dir, { recursive: true, force: true });
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
