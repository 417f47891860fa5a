import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateVapidKeys } from './config-push.js';
import { ConfigError, loadConfig } from './config.js';

const KEY = 'ab'.repeat(32);

describe('loadConfig', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'gable-config-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('has working defaults in embedded mode and generates a key once', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first).toMatchObject({ port: 3000, host: '127.0.0.1', baseUrl: 'http://127.0.0.1:3000', embedded: true, databaseUrl: null, appName: 'Gable' });
    expect(first.webUrl).toBe(first.baseUrl);
    expect(first.secretKey).toHaveLength(32);
    expect(readFileSync(join(dataDir, 'secret.key'), 'utf8').trim()).toBe(first.secretKey.toString('hex'));
    expect(loadConfig({ DATA_DIR: dataDir }).secretKey.equals(first.secretKey)).toBe(true);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('generates VAPID private keys of exactly 32 bytes, also when the scalar starts with a zero byte', () => {
    // About one scalar in 256 has a leading zero byte; 3,000 pairs miss that case with probability under 0.001%.
    const lengths = new Set(Array.from({ length: 3000 }, () => Buffer.from(generateVapidKeys().privateKey, 'base64url').length));
    expect([...lengths]).toEqual([32]);
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).push.vapid?.privateKey).toBe(JSON.parse(readFileSync(join(dataDir, 'vapid.json'), 'utf8')).privateKey);
  });

  it('reads WEBHOOK_ALLOWED_NETWORKS as CIDRs and refuses anything else', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).webhookAllowedNetworks).toEqual([]);
    expect(loadConfig({ DATA_DIR: dataDir, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8, ::1/128,10.0.0.5' }).webhookAllowedNetworks).toEqual(['127.0.0.0/8', '::1/128', '10.0.0.5']);
    expect(() => loadConfig({ DATA_DIR: dataDir, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,localhost' })).toThrow(/WEBHOOK_ALLOWED_NETWORKS.*localhost/);
    expect(() => loadConfig({ DATA_DIR: dataDir, WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/99' })).toThrow(/WEBHOOK_ALLOWED_NETWORKS/);
  });

  it('reads S3_URL into the store location and refuses one without a bucket or key pair', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).s3).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, S3_URL: 's3://AK:SK@s3.example.com/print-files' }).s3).toMatchObject({ endpoint: 'https://s3.example.com', bucket: 'print-files', accessKeyId: 'AK' });
    expect(() => loadConfig({ DATA_DIR: dataDir, S3_URL: 'https://s3.example.com/print-files' })).toThrow(/S3_URL must carry the access key/);
    expect(() => loadConfig({ DATA_DIR: dataDir, S3_URL: 'https://AK:SK@s3.example.com' })).toThrow(/S3_URL must name a bucket/);
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', BASE_URL: 'ftp://x', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', TRUST_PROXY: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'BASE_URL', 'LOG_LEVEL', 'DATABASE_URL', 'TRUST_PROXY', 'SECRET_KEY']) expect(problems).toContain(name);
  });

  it('requires SECRET_KEY with DATABASE_URL and accepts hex or base64', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x' })).toThrow(/SECRET_KEY is required/);
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x', SECRET_KEY: KEY }).secretKey.toString('hex')).toBe(KEY);
    const base64 = Buffer.from(KEY, 'hex').toString('base64');
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x', SECRET_KEY: base64 }).secretKey.toString('hex')).toBe(KEY);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x', SECRET_KEY: 'short' })).toThrow(/32 bytes/);
  });

  it('always runs workers in-process in embedded mode', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), WORKERS_IN_PROCESS: 'false' }).workersInProcess).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x', SECRET_KEY: KEY, WORKERS_IN_PROCESS: 'false' }).workersInProcess).toBe(false);
  });
});
