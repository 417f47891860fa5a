// Forward-only migrations: every file in ./migrations, applied in name order (names are ISO-dated).
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * A migration file: `.ts` in src/ (tsx, tests), `.js` in the compiled dist/ (beside its `.js.map`). The name a
 * database records is the file name without that extension, so a database migrated from either stays current.
 */
const MIGRATION_FILE = /^(\d{4}-\d{2}-\d{2}.*)\.(ts|js)$/;

/** Reads every migration of a directory (exported for its test, which gives it a directory of its own). */
export class DirectoryMigrationProvider implements MigrationProvider {
  constructor(private readonly dir: string = MIGRATIONS_DIR) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(this.dir)).filter((f) => MIGRATION_FILE.test(f) && !f.endsWith('.d.ts')).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      migrations[file.replace(MIGRATION_FILE, '$1')] = (await import(
        pathToFileURL(join(this.dir, file)).href
      )) as Migration;
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

/** The migrations this code has that the database has not applied (`gable doctor`), in name order. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any schema
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrations = await migratorOf(db).getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
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
