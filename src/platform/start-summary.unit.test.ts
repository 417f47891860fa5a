// The lines `gable serve` logs once it listens: where it answers, each feature ready or off with what turns it on,
// and never a password.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { startSummary } from './start-summary.js';

const dir = mkdtempSync(join(tmpdir(), 'gable-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('startSummary', () => {
  it('says where the embedded server answers and what is off, naming the variable that turns it on', () => {
    const lines = startSummary(loadConfig({ DATA_DIR: dir, PORT: '3456', CHROMIUM_PATH: 'none' }));
    expect(lines[0]).toBe('Gable is serving at http://127.0.0.1:3456 (API reference: http://127.0.0.1:3456/docs)');
    expect(lines).toContain(`mail: written as files under ${join(dir, 'mail')} (set SMTP_URL to send it)`);
    expect(lines).toContain('print rendering: off (install Chromium or set CHROMIUM_PATH)');
    expect(lines.find((line) => line.startsWith('Microsoft 365'))).toMatch(/MICROSOFT_CLIENT_ID/);
  });

  it('shows the database and the mail server without their passwords', () => {
    const lines = startSummary(
      loadConfig({
        DATA_DIR: dir,
        DATABASE_URL: 'postgres://gable:hunter2@db.internal:5432/gable',
        SECRET_KEY: '0f'.repeat(32),
        SMTP_URL: 'smtp://mailer:s3cret@smtp.internal:587',
      }),
    );
    expect(lines.join('\n')).not.toMatch(/hunter2|s3cret/);
    expect(lines).toContain('database: PostgreSQL at postgres://gable:***@db.internal:5432/gable');
  });
});

describe('LOG_FORMAT', () => {
  it('takes json or pretty and refuses anything else', () => {
    expect(loadConfig({ DATA_DIR: dir, LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ DATA_DIR: dir, LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ DATA_DIR: dir, LOG_FORMAT: 'yaml' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT must be json or pretty/);
  });
});
