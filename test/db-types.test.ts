// src/db/schema.generated.ts is what kysely-codegen makes of the migrated schema (issue 29 item 4): regenerated
// here from this run's test database (embedded, or PostgreSQL: the two give the same file), it must equal the
// committed one. A migration without `npm run db:types` fails here.
import { describe, expect, it } from 'vitest';
import { committedDbTypes, generateDbTypes } from '../scripts/db-types.generate.js';
import { useTestApp } from './helpers/app.js';

const t = useTestApp();

describe('src/db/schema.generated.ts', () => {
  it('is what the migrations make (else run `npm run db:types`)', { timeout: 60_000 }, async () => {
    const generated = await generateDbTypes(t.deps.db);
    expect(generated).toContain('export interface DB {');
    expect(generated).toContain('  access_tokens: AccessTokens;');
    expect(committedDbTypes()).toEqual(generated);
  });
});
