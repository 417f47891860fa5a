// The compiled runtime (dist/) holds each migration as `.js` beside its `.js.map`; the names recorded in
// schema_migrations must be the ones the TypeScript sources gave, or a database migrated by an older start would
// see every migration as new.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectoryMigrationProvider } from './migrator.js';

const dir = mkdtempSync(join(tmpdir(), 'gable-migrations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('DirectoryMigrationProvider', () => {
  it('reads .js and .ts migrations under their names without the extension, and nothing else', async () => {
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(dir, '2026-11-21T1900-foundation.js'), 'export async function up() { return "js"; }\n');
    writeFileSync(join(dir, '2026-11-21T1900-foundation.js.map'), '{}');
    writeFileSync(join(dir, '2026-11-21T1900-foundation.d.ts'), 'export declare function up(): Promise<string>;\n');
    writeFileSync(
      join(dir, '2026-11-22T0800-listings.ts'),
      'export async function up(): Promise<string> { return "ts"; }\n',
    );
    writeFileSync(join(dir, 'README.md'), 'not a migration');

    const migrations = await new DirectoryMigrationProvider(dir).getMigrations();

    expect(Object.keys(migrations)).toEqual(['2026-11-21T1900-foundation', '2026-11-22T0800-listings']);
    const up = migrations['2026-11-21T1900-foundation']!.up as unknown as () => Promise<string>;
    expect(await up()).toBe('js');
  });

  it('names the shipped migrations as before: their file names without .ts', async () => {
    const names = Object.keys(await new DirectoryMigrationProvider().getMigrations());
    expect(names.length).toBeGreaterThan(10);
    expect(names[0]).toBe('2026-11-21T1900-foundation');
    for (const name of names) expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{4}-[a-z0-9-]+$/);
  });
});
