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

/**
 * `dataDir`: embedded, keep the copy in this (empty) directory, as `gable serve` keeps its database, instead of in
 * memory (every statement then syncs to disk, as in production).
 */
export async function createTestDatabase(options: { dataDir?: string } = {}): Promise<TestDatabase> {
  const source = inject('testDatabase');
  if (source.kind === 'pglite') {
    const dump = new Blob([readFileSync(source.dumpFile)]);
    const pglite = await PGlite.create({
      loadDataDir: dump,
      extensions: PGLITE_EXTENSIONS,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    });
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
      try {
        await dropWhenClosed(client, name);
      } finally {
        await client.end();
      }
    },
  };
}

const IN_USE = '55006';

/**
 * pg's Pool.end() resolves before its connections have finished closing. Dropping WITH (FORCE) at that moment
 * terminates a closing connection, and the termination then surfaces as an uncaught error in its client. So
 * wait for the connections to go (about a second at most); only a connection still open after that, one a
 * test leaked, is forced.
 */
async function dropWhenClosed(client: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await client.query(`drop database if exists ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== IN_USE) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  await client.query(`drop database if exists ${name} with (force)`);
}
