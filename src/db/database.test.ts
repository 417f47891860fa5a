// Closing a database ends its pool's connections, whatever ran on it.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { openDatabase } from './database.js';

describe('Database.close', () => {
  const t = useTestApp();

  it('ends the pool also when only raw statements ran (no Kysely query ever started its driver)', async () => {
    const database = await openDatabase({
      databaseUrl: t.deps.config.databaseUrl,
      dataDir: t.deps.config.dataDir,
      ...(t.deps.database.pglite ? { pglite: t.deps.database.pglite } : {}),
    });
    await database.query({ text: 'select 1' });
    await database.query({ name: 'test.database-close', text: 'select $1::int as n', values: [2] });
    expect(database.pool.totalCount).toBeGreaterThan(0);
    await database.close();
    expect(database.pool.totalCount).toBe(0);
    expect(database.pool.ended).toBe(true);
  });
});
