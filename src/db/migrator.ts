// Forward-only migrations: every file in ./migrations, applied in name order (names are ISO-dated).
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { MigrationsBehindError } from './migrations-behind.js';

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
  const names = (await migrationFiles(dir)).map(({ name }) => name);
  const applied = new Set(await appliedMigrations(db));
  return names.filter((name) => !applied.has(name));
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
  const migrator = migratorOf(db);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
