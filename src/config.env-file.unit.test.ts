// Every command reads `.env` from its working directory; the environment wins over it, and a bad line stops the
// start with its file and line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, environment, loadConfig } from './config.js';

describe('environment() with a .env file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gable-env-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is the environment alone when there is no .env', () => {
    const env = { PORT: '3100' };
    expect(environment(dir, env)).toBe(env);
  });

  it('adds the file’s variables, and a variable of the environment wins over the file’s', () => {
    writeFileSync(join(dir, '.env'), 'PORT=3200\nAPP_NAME="Acme Realty"\n');
    const env = environment(dir, { PORT: '3300', DATA_DIR: dir });
    expect(env).toMatchObject({ PORT: '3300', APP_NAME: 'Acme Realty' });
    const config = loadConfig(env);
    expect(config.port).toBe(3300);
    expect(config.appName).toBe('Acme Realty');
  });

  it('refuses a malformed line with the file and the line number, as a configuration error', () => {
    writeFileSync(join(dir, '.env'), 'PORT=3200\n\nLOG_LEVEL debug\n');
    expect(() => environment(dir, {})).toThrow(ConfigError);
    expect(() => environment(dir, {})).toThrow(/\.env, line 3: expected NAME=value/);
  });
});
