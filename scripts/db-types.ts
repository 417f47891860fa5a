// `npm run db:types`: migrates a fresh in-memory embedded database and writes its Kysely types to
// src/db/schema.generated.ts (scripts/db-types.generate.ts). Run it after adding a migration.
import { writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, PGLITE_EXTENSIONS } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { committedDbTypes, DB_TYPES_FILE, generateDbTypes } from './db-types.generate.js';

const database = await openDatabase({
  databaseUrl: null,
  dataDir: '',
  pglite: await PGlite.create({ extensions: PGLITE_EXTENSIONS }),
});
try {
  await migrateToLatest(database.db);
  const code = await generateDbTypes(database.db);
  let before = '';
  try {
    before = committedDbTypes();
  } catch {
    // no file yet
  }
  if (code === before) console.log(`${DB_TYPES_FILE} is up to date`);
  else {
    writeFileSync(DB_TYPES_FILE, code);
    console.log(`${DB_TYPES_FILE} written`);
  }
} finally {
  await database.close();
}
