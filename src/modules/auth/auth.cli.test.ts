// `gable admin client create|list`, parsed by commander in-process, on the test database.
import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { registerClientCommands } from './auth.cli.js';

describe('gable admin client', () => {
  const t = useTestApp();

  async function run(...args: string[]): Promise<{ out: string; err: string; exitCode: number | string | undefined }> {
    const admin = new Command('admin').exitOverride();
    registerClientCommands(admin, (command) => command(t.deps));
    const out: string[] = [];
    const err: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void out.push(parts.join(' ')));
    const error = vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void err.push(parts.join(' ')));
    process.exitCode = undefined;
    try {
      await admin.parseAsync(args, { from: 'user' });
      return { out: out.join('\n'), err: err.join('\n'), exitCode: process.exitCode };
    } finally {
      log.mockRestore();
      error.mockRestore();
      process.exitCode = undefined;
    }
  }

  it('creates clients, prints the secret once, and lists them without secrets', async () => {
    const created = await run('client', 'create', '--name', 'Acme CRM', '--kind', 'partner', '--redirect-uri', 'https://acme.example/cb', '--redirect-uri', 'com.acme.app:/cb', '--json');
    const client = JSON.parse(created.out);
    expect(client).toMatchObject({ name: 'Acme CRM', kind: 'partner', redirect_uris: ['https://acme.example/cb', 'com.acme.app:/cb'], grants: ['authorization_code', 'implicit', 'refresh_token'] });
    expect(client.client_secret).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const firstParty = await run('client', 'create', '--name', 'Web app', '--kind', 'first_party');
    expect(firstParty.out).toMatch(/client_secret: [A-Za-z0-9_-]{32}\n/);
    const publicClient = await run('client', 'create', '--name', 'Mobile', '--kind', 'public', '--redirect-uri', 'http://127.0.0.1:8123/cb');
    expect(publicClient.out).toContain('client_secret: (none: public client, use PKCE)');

    const listed = await run('client', 'list', '--json');
    const rows = JSON.parse(listed.out) as Record<string, unknown>[];
    expect(rows.map((r) => r.client_id)).toContain(client.client_id);
    expect(listed.out).not.toContain(client.client_secret);
    const text = await run('client', 'list');
    expect(text.out).toContain(`${client.client_id}  partner  Acme CRM`);
  });

  it('creates a client that can log in', async () => {
    const created = JSON.parse((await run('client', 'create', '--name', 'CC', '--kind', 'first_party', '--json')).out);
    const res = await t.app.inject({ method: 'POST', url: '/oauth2/token', payload: { grant_type: 'client_credentials', client_id: created.client_id, client_secret: created.client_secret } });
    expect(res.statusCode).toBe(200);
  });

  it('explains operator mistakes and exits 1', async () => {
    expect(await run('client', 'create', '--name', 'X', '--kind', 'robot')).toMatchObject({ exitCode: 1, err: '--kind must be one of first_party, partner, public' });
    expect(await run('client', 'create', '--name', 'X', '--kind', 'partner')).toMatchObject({ exitCode: 1, err: 'a partner client needs at least one --redirect-uri' });
    const badUri = await run('client', 'create', '--name', 'X', '--kind', 'partner', '--redirect-uri', 'http://evil.example/cb');
    expect(badUri.exitCode).toBe(1);
    expect(badUri.err).toContain('must use https');
  });
});
