// Forward-only migrations: every file in ./migrations, applied in name order (names are ISO-dated).
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { MigrationsAheadAndBehindError, MigrationsBehindError } from './migrations-behind.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * A migration file: `.ts` in src/ (tsx, tests), `.js` in the compiled dist/ (beside its `.js.map`). The name a
 * database records is the file name without that extension, so a database migrated from either stays current.
 */
const MIGRATION_FILE = /^(\d{4}-\d{2}-\d{2}.*)\.(ts|js)$/;

/** The migration files of a directory, in name order, each with the name a database records for it. */
async function migrationFiles(dir: string): Promise<{ file: string; name: string }[]> {
  return (await readdir(dir))
    .filter((f) => MIGRATION_FILE.test(f) && !f.endsWith('.d.ts'))
    .sort()
    .map((file) => ({ file, name: file.replace(MIGRATION_FILE, '$1') }));
}

/** Reads every migration of a directory (exported for its test, which gives it a directory of its own). */
export class DirectoryMigrationProvider implements MigrationProvider {
  constructor(private readonly dir: string = MIGRATIONS_DIR) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const { file, name } of await migrationFiles(this.dir)) {
      migrations[name] = (await import(pathToFileURL(join(this.dir, file)).href)) as Migration;
    }
    return migrations;
  }
}

export interface MigrationOutcome {
  applied: string[];
  /** Migrations the database has that this code does not know (a newer version migrated it); none applied then. */
  ahead: string[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any schema
function migratorOf(db: Kysely<any>): Migrator {
  return new Migrator({
    db,
    provider: new DirectoryMigrationProvider(),
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
}

/**
 * The migrations this code has that the database has not applied (`gable doctor`, every command), in name order.
 * Read from the file names and schema_migrations alone: no migration module is loaded to answer it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any schema
export async function pendingMigrations(db: Kysely<any>, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  return (await migrationState(db, dir)).pending;
}

export interface MigrationState {
  /** This code's migrations the database has not applied, in name order. */
  pending: string[];
  /** The database's migrations this code does not know (a newer version's), in name order. */
  ahead: string[];
}

/** How the database's migrations compare with this code's, from the file names and schema_migrations alone. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any schema
export async function migrationState(db: Kysely<any>, dir: string = MIGRATIONS_DIR): Promise<MigrationState> {
  const names = (await migrationFiles(dir)).map(({ name }) => name);
  const known = new Set(names);
  const applied = await appliedMigrations(db);
  const done = new Set(applied);
  return {
    pending: names.filter((name) => !done.has(name)),
    ahead: applied.filter((name) => !known.has(name)).sort(),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any schema
async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  try {
    const rows = await db.selectFrom('schema_migrations').select('name').execute();
    return rows.map((row) => String(row.name));
  } catch (error) {
    if ((error as { code?: string }).code === UNDEFINED_TABLE) return []; // a database never migrated
    throw error;
  }
}

/** PostgreSQL's SQLSTATE for a relation that does not exist. */
const UNDEFINED_TABLE = '42P01';

/**
 * What a command does to the schema before its work (decisions §20). The embedded database is one user's, on one
 * machine: it is brought up to date, as `npm start` does. A PostgreSQL database may be shared with running servers
 * of another version during an upgrade: only `gable migrate`, `serve` and `worker` change it, and any other command
 * on a database that is behind stops with one line instead of altering the schema under them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any schema
export async function prepareSchemaForCommand(db: Kysely<any>, embedded: boolean): Promise<void> {
  if (embedded) {
    await migrateToLatest(db);
    return;
  }
  const pending = await pendingMigrations(db);
  if (pending.length > 0) throw new MigrationsBehindError(pending);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationOutcome> {
  // A database a newer version has migrated (a rolling upgrade, ADR 0040): this version runs on it as it is.
  // Kysely's migrator would refuse it as corrupted, and a replaced process of the old version would not start.
  const { pending, ahead } = await migrationState(db);
  if (ahead.length > 0) {
    if (pending.length > 0) throw new MigrationsAheadAndBehindError(ahead, pending);
    return { applied: [], ahead };
  }
  const migrator = migratorOf(db);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName), ahead: [] };
}

/** `serve` and `worker` at their start: migrate, or, on a database a newer version has migrated, say so and go on. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any schema
export async function migrateAtStart(db: Kysely<any>, log: FastifyBaseLogger): Promise<void> {
  const { ahead } = await migrateToLatest(db);
  if (ahead.length > 0) log.warn(aheadWarning(ahead));
}

/** What a process that migrates at its start (`serve`, `worker`) says about a database ahead of it. */
export function aheadWarning(ahead: readonly string[]): string {
  return (
    `the database has ${ahead.length} migration(s) of a newer version of gable (${ahead.at(-1)}): ` +
    'running on it unmigrated, as during a rolling upgrade; replace this process with the newer version'
  );
}
