// A fresh, migrated database for one test file: a copy of the run's template.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { PGLITE_EXTENSIONS } from '../../src/db/database.js';

export interface TestDatabase {
  /** DATABASE_URL for the copy, or null for embedded. */
  databaseUrl: string | null;
  pglite?: PGlite;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const source = inject('testDatabase');
  if (source.kind === 'pglite') {
    const dump = new Blob([readFileSync(source.dumpFile)]);
    const pglite = await PGlite.create({ loadDataDir: dump, extensions: PGLITE_EXTENSIONS });
    return { databaseUrl: null, pglite, drop: async () => undefined };
  }
  const name = `${source.prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: source.url });
  await admin.connect();
  await admin.query(`create database ${name} template ${source.template}`);
  await admin.end();
  const url = new URL(source.url);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: source.url });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
