// What a command does to a schema older than its code (decisions §20): on PostgreSQL it stops with one line naming
// `gable migrate` and changes nothing; the embedded database is brought up to date.
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { operatorErrorLine } from '../cli/errors.js';
import { MigrationsAheadAndBehindError, MigrationsBehindError } from './migrations-behind.js';
import { openDatabase } from './database.js';
import { migrateToLatest, migrationState, pendingMigrations, prepareSchemaForCommand } from './migrator.js';

const t = useTestApp();

async function appliedCount(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from schema_migrations`.execute(t.deps.db);
  return rows[0]!.n;
}

describe('prepareSchemaForCommand', () => {
  it('lets a command run on a current schema, on either database', async () => {
    expect(await pendingMigrations(t.deps.db)).toEqual([]);
    await expect(prepareSchemaForCommand(t.deps.db, false)).resolves.toBeUndefined();
  });

  it('stops a command on a PostgreSQL schema that is behind, naming gable migrate, and changes nothing', async () => {
    const { rows } = await sql<{ name: string; timestamp: string }>`
      select name, timestamp from schema_migrations order by name desc limit 1`.execute(t.deps.db);
    const { name, timestamp } = rows[0]!;
    await sql`delete from schema_migrations where name = ${name}`.execute(t.deps.db);
    try {
      const before = await appliedCount();
      const error = await prepareSchemaForCommand(t.deps.db, false).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationsBehindError);
      expect((error as MigrationsBehindError).pending).toEqual([name]);
      expect(operatorErrorLine(error, null)).toBe(
        `the database is one migration behind this version of gable (${name}): run \`gable migrate\``,
      );
      expect(await appliedCount()).toBe(before);
    } finally {
      await sql`insert into schema_migrations (name, timestamp) values (${name}, ${timestamp})`.execute(t.deps.db);
    }
  });

  it('counts every migration of a database never migrated, without creating a table', async () => {
    const database = await openDatabase({ databaseUrl: null, dataDir: '', pglite: await PGlite.create() });
    const empty = database.db;
    try {
      const error = (await prepareSchemaForCommand(empty, false).catch((e: unknown) => e)) as MigrationsBehindError;
      expect(error).toBeInstanceOf(MigrationsBehindError);
      expect(error.pending.length).toBeGreaterThan(40);
      expect(error.message).toMatch(/^the database is \d+ migrations behind this version of gable \(.+\): run/);
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_tables where schemaname = 'public'`.execute(empty);
      expect(rows[0]!.n).toBe(0);
    } finally {
      await database.close();
    }
  });
});

describe('a database a newer version has migrated (a rolling upgrade)', () => {
  const NEWER = '2099-01-01T0000-from-a-newer-version';

  it('is run on as it is: no migration refused as corrupt, commands and /ready go on', async () => {
    await sql`insert into schema_migrations (name, timestamp) values (${NEWER}, now())`.execute(t.deps.db);
    try {
      expect(await migrationState(t.deps.db)).toEqual({ pending: [], ahead: [NEWER] });
      await expect(migrateToLatest(t.deps.db)).resolves.toEqual({ applied: [], ahead: [NEWER] });
      await expect(prepareSchemaForCommand(t.deps.db, false)).resolves.toBeUndefined();
      const ready = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.json()).toMatchObject({ status: 'ready', migrations: 'current' });
    } finally {
      await sql`delete from schema_migrations where name = ${NEWER}`.execute(t.deps.db);
    }
  });

  it('is refused in one line when it also lacks one of this version’s migrations, and is not changed', async () => {
    const { rows } = await sql<{ name: string; timestamp: string }>`
      select name, timestamp from schema_migrations order by name desc limit 1`.execute(t.deps.db);
    const { name, timestamp } = rows[0]!;
    await sql`delete from schema_migrations where name = ${name}`.execute(t.deps.db);
    await sql`insert into schema_migrations (name, timestamp) values (${NEWER}, now())`.execute(t.deps.db);
    try {
      const before = await appliedCount();
      const error = await migrateToLatest(t.deps.db).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationsAheadAndBehindError);
      expect(operatorErrorLine(error, null)).toBe(
        `the database has 1 migration(s) this version of gable does not know (${NEWER}) and lacks 1 of its own ` +
          `(${name}): migrate it with the newest version`,
      );
      expect(await appliedCount()).toBe(before);
    } finally {
      await sql`delete from schema_migrations where name = ${NEWER}`.execute(t.deps.db);
      await sql`insert into schema_migrations (name, timestamp) values (${name}, ${timestamp})`.execute(t.deps.db);
    }
  });
});
