import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateVapidKeys } from './config-push.js';
import { ConfigError, loadConfig, withEmbeddedDemoDefaults } from './config.js';

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
    expect(first).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      baseUrl: 'http://127.0.0.1:3000',
      embedded: true,
      databaseUrl: null,
      appName: 'Gable',
    });
    expect(first.webUrl).toBe(first.baseUrl);
    expect(first.secretKey).toHaveLength(32);
    expect(readFileSync(join(dataDir, 'secret.key'), 'utf8').trim()).toBe(first.secretKey.toString('hex'));
    expect(loadConfig({ DATA_DIR: dataDir }).secretKey.equals(first.secretKey)).toBe(true);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('defaults MAIL_FROM to an address at a domain name, never at an IP literal', () => {
    const mailFrom = (env: Record<string, string>) => loadConfig({ DATA_DIR: tempDir(), ...env }).mailFrom;
    // The defaults (BASE_URL http://127.0.0.1:3000), another IP, a single label: the reserved loopback name.
    expect(mailFrom({})).toBe('Gable <no-reply@gable.localhost>');
    expect(mailFrom({ HOST: '::1' })).toBe('Gable <no-reply@gable.localhost>');
    expect(mailFrom({ BASE_URL: 'http://10.0.0.7:3000' })).toBe('Gable <no-reply@gable.localhost>');
    expect(mailFrom({ BASE_URL: 'http://localhost:3000' })).toBe('Gable <no-reply@gable.localhost>');
    // A real host name is the sender's domain, as before; MAIL_FROM wins over any default.
    expect(mailFrom({ BASE_URL: 'https://api.brokerage.example', APP_NAME: 'Acme' })).toBe(
      'Acme <no-reply@api.brokerage.example>',
    );
    expect(mailFrom({ MAIL_FROM: 'Ops <ops@brokerage.example>' })).toBe('Ops <ops@brokerage.example>');
  });

  it('generates VAPID private keys of exactly 32 bytes, also when the scalar starts with a zero byte', () => {
    // About one scalar in 256 has a leading zero byte; 3,000 pairs miss that case with probability under 0.001%.
    const lengths = new Set(
      Array.from({ length: 3000 }, () => Buffer.from(generateVapidKeys().privateKey, 'base64url').length),
    );
    expect([...lengths]).toEqual([32]);
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).push.vapid?.privateKey).toBe(
      JSON.parse(readFileSync(join(dataDir, 'vapid.json'), 'utf8')).privateKey,
    );
  });

  it('reads WEBHOOK_ALLOWED_NETWORKS as CIDRs and refuses anything else', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).webhookAllowedNetworks).toEqual([]);
    expect(
      loadConfig({ DATA_DIR: dataDir, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8, ::1/128,10.0.0.5' })
        .webhookAllowedNetworks,
    ).toEqual(['127.0.0.0/8', '::1/128', '10.0.0.5']);
    expect(() => loadConfig({ DATA_DIR: dataDir, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,localhost' })).toThrow(
      /WEBHOOK_ALLOWED_NETWORKS.*localhost/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/99' })).toThrow(
      /WEBHOOK_ALLOWED_NETWORKS/,
    );
  });

  it('reads S3_URL into the store location and refuses one without a bucket or key pair', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).s3).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, S3_URL: 's3://AK:SK@s3.example.com/print-files' }).s3).toMatchObject({
      endpoint: 'https://s3.example.com',
      bucket: 'print-files',
      accessKeyId: 'AK',
    });
    expect(() => loadConfig({ DATA_DIR: dataDir, S3_URL: 'https://s3.example.com/print-files' })).toThrow(
      /S3_URL must carry the access key/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, S3_URL: 'https://AK:SK@s3.example.com' })).toThrow(
      /S3_URL must name a bucket/,
    );
  });

  it('takes CHROMIUM_PATH only when it names an executable file, and none turns rendering off', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir, CHROMIUM_PATH: process.execPath }).chromiumPath).toBe(process.execPath);
    expect(loadConfig({ DATA_DIR: dataDir, CHROMIUM_PATH: 'none' }).chromiumPath).toBeNull();
    for (const path of ['/etc/passwd', '/usr/bin', join(dataDir, 'no-browser-here')])
      expect(() => loadConfig({ DATA_DIR: dataDir, CHROMIUM_PATH: path }), path).toThrow(
        `CHROMIUM_PATH ${path} is not an executable file (or set it to none)`,
      );
  });

  it('opens loopback to webhooks for the embedded demo alone: not with DATABASE_URL, a public listener or a setting', () => {
    const dataDir = tempDir();
    expect(withEmbeddedDemoDefaults(loadConfig({ DATA_DIR: dataDir })).webhookAllowedNetworks).toEqual([
      '127.0.0.0/8',
      '::1/128',
    ]);
    expect(
      withEmbeddedDemoDefaults(loadConfig({ DATA_DIR: dataDir, HOST: '::1' })).webhookAllowedNetworks,
    ).toHaveLength(2);
    const closed = [
      { DATA_DIR: dataDir, DATABASE_URL: 'postgres://localhost/x', SECRET_KEY: 'a'.repeat(64) },
      { DATA_DIR: dataDir, HOST: '0.0.0.0' },
      { DATA_DIR: dataDir, HOST: '192.168.1.20' },
    ];
    for (const env of closed)
      expect(withEmbeddedDemoDefaults(loadConfig(env)).webhookAllowedNetworks, env.HOST).toEqual([]);
    const set = { DATA_DIR: dataDir, WEBHOOK_ALLOWED_NETWORKS: '10.1.2.3/32' };
    expect(withEmbeddedDemoDefaults(loadConfig(set)).webhookAllowedNetworks).toEqual(['10.1.2.3/32']);
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        BASE_URL: 'ftp://x',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://x',
        TRUST_PROXY: 'maybe',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'BASE_URL', 'LOG_LEVEL', 'DATABASE_URL', 'TRUST_PROXY', 'SECRET_KEY'])
      expect(problems).toContain(name);
  });

  it('reads the shutdown timings and the pool size, and refuses them out of range', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir })).toMatchObject({
      shutdownTimeoutSeconds: 10,
      shutdownDelaySeconds: 0,
      databasePoolSize: 20,
    });
    expect(
      loadConfig({
        DATA_DIR: dataDir,
        SHUTDOWN_TIMEOUT_SECONDS: '25',
        SHUTDOWN_DELAY_SECONDS: '5',
        DATABASE_POOL_SIZE: '8',
      }),
    ).toMatchObject({ shutdownTimeoutSeconds: 25, shutdownDelaySeconds: 5, databasePoolSize: 8 });
    let error: unknown;
    try {
      loadConfig({
        DATA_DIR: dataDir,
        SHUTDOWN_TIMEOUT_SECONDS: '0',
        SHUTDOWN_DELAY_SECONDS: '-1',
        DATABASE_POOL_SIZE: '1',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'SHUTDOWN_TIMEOUT_SECONDS must be an integer from 1 to 3600',
      'DATABASE_POOL_SIZE must be an integer from 2 to 1000',
      'SHUTDOWN_DELAY_SECONDS must be an integer from 0 to 300',
    ]);
  });

  it('reads TRUST_PROXY as yes or no, a number of proxies, or their addresses and CIDRs', () => {
    const dataDir = tempDir();
    const trust = (value: string) => loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: value }).trustProxy;
    expect([trust('true'), trust('false'), trust('0'), trust('2')]).toEqual([true, false, false, 2]);
    expect(trust('10.0.0.0/8, 192.0.2.10,fd00::/8')).toEqual(['10.0.0.0/8', '192.0.2.10', 'fd00::/8']);
    expect(() => trust('10.0.0.0/8,proxy.local')).toThrow(/TRUST_PROXY must be .*"proxy.local"/);
  });

  it('requires SECRET_KEY with DATABASE_URL and accepts hex or base64', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x' })).toThrow(/SECRET_KEY is required/);
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x', SECRET_KEY: KEY }).secretKey.toString('hex')).toBe(KEY);
    const base64 = Buffer.from(KEY, 'hex').toString('base64');
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x', SECRET_KEY: base64 }).secretKey.toString('hex')).toBe(
      KEY,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x', SECRET_KEY: 'short' })).toThrow(/32 bytes/);
  });

  it('reads SECRET_KEY_PREVIOUS as one key or a list, and refuses a bad item, SECRET_KEY itself or a repeat', () => {
    const env = { DATABASE_URL: 'postgres://localhost/x', SECRET_KEY: KEY };
    const [one, two] = ['cd'.repeat(32), Buffer.alloc(32, 0xef).toString('base64')];
    const previous = (value: string) =>
      loadConfig({ ...env, SECRET_KEY_PREVIOUS: value }).previousSecretKeys.map((key) => key.toString('hex'));
    expect(loadConfig(env).previousSecretKeys).toEqual([]);
    expect(previous(one)).toEqual([one]);
    expect(previous(` ${one} , ${two} `)).toEqual([one, 'ef'.repeat(32)]);
    const problems = (value: string) => {
      try {
        loadConfig({ ...env, SECRET_KEY_PREVIOUS: value });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems('short')).toEqual([
      'SECRET_KEY_PREVIOUS must be 32 bytes, written as 64 hex characters or as base64',
    ]);
    expect(problems(`${one},${KEY}`)).toEqual([
      'SECRET_KEY_PREVIOUS item 2 is SECRET_KEY itself: set SECRET_KEY to the new key',
    ]);
    expect(problems(`${one},${one}`)).toEqual(['SECRET_KEY_PREVIOUS item 2 repeats an earlier item']);
  });

  it('reads per-app push settings (<VARIABLE>_<APP>), each falling back to the shared one, and keeps the shared ones as they were', () => {
    const dataDir = tempDir();
    const keyFile = join(dataDir, 'AuthKey.p8');
    writeFileSync(
      keyFile,
      generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    const apns = { APNS_KEY_FILE: keyFile, APNS_KEY_ID: 'KEY1', APNS_TEAM_ID: 'TEAM1', APNS_TOPIC: 'com.example.main' };
    const brokerage = generateVapidKeys();
    const config = loadConfig({
      DATA_DIR: dataDir,
      PUSH_APPS: 'brokerage-ios,other.app',
      ...apns,
      APNS_TOPIC_BROKERAGE_IOS: 'com.brokerage.ios',
      VAPID_PUBLIC_KEY_BROKERAGE_IOS: brokerage.publicKey,
      VAPID_PRIVATE_KEY_BROKERAGE_IOS: brokerage.privateKey,
    });
    expect(config.push.apns).toMatchObject({
      topic: 'com.example.main',
      keyId: 'KEY1',
      url: 'https://api.push.apple.com',
    });
    expect(config.push.apps.get('brokerage-ios')?.apns).toMatchObject({
      topic: 'com.brokerage.ios',
      keyId: 'KEY1',
      teamId: 'TEAM1',
    });
    expect(config.push.apps.get('brokerage-ios')?.vapid?.publicKey).toBe(brokerage.publicKey);
    // Apps without settings of their own use the very shared objects (and so share senders and cached tokens).
    expect(config.push.apps.get('other.app')?.apns).toBe(config.push.apns);
    expect(config.push.apps.get('rechat')?.vapid).toBe(config.push.vapid);
    expect(config.push.apps.get('other.app')?.fcm).toBeNull();
  });

  it('reports bad per-app push settings with the variable at fault, all at once', () => {
    const dataDir = tempDir();
    let error: unknown;
    try {
      loadConfig({
        DATA_DIR: dataDir,
        PUSH_APPS: 'brokerage-ios,web,a-b,a.b',
        APNS_TOPIC_BROKERAGE_IOS: 'com.brokerage.ios',
        VAPID_PUBLIC_KEY_WEB: generateVapidKeys().publicKey,
        FCM_CREDENTIALS_WEB: join(dataDir, 'missing.json'),
        APNS_TOPIC_BROKERAGE_ANDROID: 'typo',
        APNS_URL_WEB: 'ftp://apns.example',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^APNs of app brokerage-ios needs APNS_KEY_FILE, APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC, each as its own _BROKERAGE_IOS variable or the shared one/,
        ),
        'Web Push of app web needs VAPID_PUBLIC_KEY_WEB and VAPID_PRIVATE_KEY_WEB together',
        expect.stringMatching(/^FCM_CREDENTIALS_WEB .*missing\.json must be a readable service-account JSON file/),
        expect.stringMatching(/^APNS_TOPIC_BROKERAGE_ANDROID names no configured app/),
        expect.stringMatching(/^PUSH_APPS: the apps a-b and a\.b would share the variable suffix _A_B/),
      ]),
    );
    expect(problems).toHaveLength(new Set(problems).size);
  });

  it('always runs workers in-process in embedded mode', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), WORKERS_IN_PROCESS: 'false' }).workersInProcess).toBe(true);
    expect(
      loadConfig({ DATABASE_URL: 'postgres://localhost/x', SECRET_KEY: KEY, WORKERS_IN_PROCESS: 'false' })
        .workersInProcess,
    ).toBe(false);
  });
});
