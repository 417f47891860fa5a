// The rows of `gable doctor`: each part reached for real — the test database, a loopback SMTP relay, a port that
// refuses — and never a password in what they say.
import { createServer } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { startSmtpSink, type SmtpSink } from '../../test/fakes/smtp.js';
import { freePort } from '../../test/helpers/ports.js';
import { featureStatus, formatStatus, type FeatureStatus } from './feature-status.js';

const rowOf = (rows: FeatureStatus[], feature: string) => rows.find((row) => row.feature === feature)!;

describe('feature status', () => {
  const t = useTestApp();
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  const status = (config: Partial<typeof t.deps.config> = {}) =>
    featureStatus({ config: { ...t.deps.config, ...config }, db: t.deps.db, files: t.deps.files, renderer: null });

  it('reports the database current, the relay answering, and what is off with the variable to set', async () => {
    const rows = await status({ smtpUrl: sink.url });
    expect(rowOf(rows, 'database')).toMatchObject({
      state: 'ready',
      detail: expect.stringMatching(/migrations current/),
    });
    expect(rowOf(rows, 'mail')).toMatchObject({
      state: 'ready',
      detail: expect.stringMatching(/^SMTP 127\.0\.0\.1:\d+ answered/),
    });
    expect(rowOf(rows, 'file store').state).toBe('ready');
    expect(rowOf(rows, 'print rendering')).toMatchObject({
      state: 'off',
      detail: expect.stringMatching(/CHROMIUM_PATH/),
    });
    expect(rowOf(rows, 'Microsoft 365')).toMatchObject({
      state: 'off',
      detail: expect.stringMatching(/MICROSOFT_CLIENT_ID/),
    });
    expect(formatStatus(rows).split('\n')).toHaveLength(rows.length);
  });

  it('reports migrations behind as broken, naming gable migrate', async () => {
    const last = await sql<{ name: string; timestamp: string }>`
      select name, timestamp from schema_migrations order by name desc limit 1`.execute(t.deps.db);
    const { name, timestamp } = last.rows[0]!;
    await sql`delete from schema_migrations where name = ${name}`.execute(t.deps.db);
    try {
      const row = rowOf(await status(), 'database');
      expect(row.state).toBe('broken');
      expect(row.detail).toContain(`1 migration(s) not applied (first: ${name}): run gable migrate`);
    } finally {
      await sql`insert into schema_migrations (name, timestamp) values (${name}, ${timestamp})`.execute(t.deps.db);
    }
  });

  it('reports a relay that refuses the connection as broken, without the password of its URL', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await freePort();
    const row = rowOf(await status({ smtpUrl: `smtp://mailer:hunter2@127.0.0.1:${port}` }), 'mail');
    expect(row.state).toBe('broken');
    expect(row.detail).toMatch(/ECONNREFUSED/);
    expect(row.detail).toContain('SMTP_URL');
    expect(row.detail).not.toContain('hunter2');
  });

  it('reports a relay that accepts and never greets as broken within its time limit', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const row = rowOf(await status({ smtpUrl: `smtp://127.0.0.1:${port}` }), 'mail');
      expect(row.state).toBe('broken');
      expect(row.detail).toMatch(/timeout|timed out|did not answer/i);
    } finally {
      silent.close();
    }
  }, 30_000);
});
