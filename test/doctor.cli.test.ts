// `gable doctor` as an operator runs it: one row per feature, exit 0 when nothing is broken, 1 when something is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGable } from './helpers/cli.js';
import { freePort } from './helpers/ports.js';

const dataDir = mkdtempSync(join(tmpdir(), 'gable-doctor-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The embedded database, not created yet, and no browser: what a fresh clone has before its first start. */
const fresh = { DATA_DIR: dataDir, DATABASE_URL: '', CHROMIUM_PATH: 'none', SMTP_URL: '' };

describe('gable doctor', () => {
  it('prints a row per feature and exits 0 when nothing is broken', async () => {
    const { stdout } = await runGable(['doctor', '--json'], fresh);
    const rows = JSON.parse(stdout) as { feature: string; state: string; detail: string }[];
    expect(rows.map((row) => row.feature)).toEqual([
      'database',
      'mail',
      'file store',
      'print rendering',
      'secrets',
      'push',
      'Microsoft 365',
      'outbound network',
      'addresses',
    ]);
    expect(rows.every((row) => row.state !== 'broken')).toBe(true);
    expect(rows[0]!.detail).toMatch(/not created yet/);
  });

  it('exits 1 with the broken row when the SMTP relay refuses the connection', async () => {
    const port = await freePort();
    const failure = await runGable(['doctor'], { ...fresh, SMTP_URL: `smtp://127.0.0.1:${port}` }).then(
      () => null,
      (error: unknown) => error as { code: number; stdout: string },
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toMatch(/^mail +broken +SMTP smtp:\/\/127\.0\.0\.1:\d+\/?: connect ECONNREFUSED/m);
  });
});
