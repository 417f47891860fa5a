// `gable admin client create|list`, parsed by commander in-process, on the test database.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runAdminCommand } from '../../../test/helpers/cli.js';
import { registerClientCommands } from './auth.cli.js';

describe('gable admin client', () => {
  const t = useTestApp();

  const run = (...args: string[]) => runAdminCommand(registerClientCommands, t.deps, ...args);

  it('creates clients, prints the secret once, and lists them without secrets', async () => {
    const created = await run(
      'client',
      'create',
      '--name',
      'Acme CRM',
      '--kind',
      'partner',
      '--redirect-uri',
      'https://acme.example/cb',
      '--redirect-uri',
      'com.acme.app:/cb',
      '--json',
    );
    const client = JSON.parse(created.out);
    expect(client).toMatchObject({
      name: 'Acme CRM',
      kind: 'partner',
      redirect_uris: ['https://acme.example/cb', 'com.acme.app:/cb'],
      grants: ['authorization_code', 'implicit', 'refresh_token'],
    });
    expect(client.client_secret).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const firstParty = await run('client', 'create', '--name', 'Web app', '--kind', 'first_party');
    expect(firstParty.out).toMatch(/client_secret: [A-Za-z0-9_-]{32}\n/);
    const publicClient = await run(
      'client',
      'create',
      '--name',
      'Mobile',
      '--kind',
      'public',
      '--redirect-uri',
      'http://127.0.0.1:8123/cb',
    );
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
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: { grant_type: 'client_credentials', client_id: created.client_id, client_secret: created.client_secret },
    });
    expect(res.statusCode).toBe(200);
  });

  it('explains operator mistakes and exits 1', async () => {
    expect(await run('client', 'create', '--name', 'X', '--kind', 'robot')).toMatchObject({
      exitCode: 1,
      err: '--kind must be one of first_party, partner, public',
    });
    expect(await run('client', 'create', '--name', 'X', '--kind', 'partner')).toMatchObject({
      exitCode: 1,
      err: 'a partner client needs at least one --redirect-uri',
    });
    const badUri = await run(
      'client',
      'create',
      '--name',
      'X',
      '--kind',
      'partner',
      '--redirect-uri',
      'http://evil.example/cb',
    );
    expect(badUri.exitCode).toBe(1);
    expect(badUri.err).toContain('must use https');
  });

  it('registers an existing partner under its own client_id and secret (an imported registration)', async () => {
    // The WordPress plugin's redirect URI carries a query string: an exact-match URI that keeps it.
    const redirect = 'https://wp.example.com/wp-admin/admin.php?page=rechat-setting&tab=connect-to-rechat';
    const created = await run(
      'client',
      'create',
      '--name',
      'WordPress plugin',
      '--kind',
      'partner',
      '--client-id',
      'wp-plugin.builtin-01',
      '--client-secret',
      's3cret-of-the-plugin-0123',
      '--redirect-uri',
      redirect,
      '--json',
    );
    expect(created.exitCode).toBeUndefined();
    expect(JSON.parse(created.out)).toMatchObject({
      client_id: 'wp-plugin.builtin-01',
      client_secret: 's3cret-of-the-plugin-0123',
      redirect_uris: [redirect],
    });
    const row = await t.deps.db
      .selectFrom('oauth_clients')
      .select('secret_hash')
      .where('client_id', '=', 'wp-plugin.builtin-01')
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain('s3cret'); // hashed like any other secret
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses an imported client_id that exists already, and malformed ids and secrets, writing nothing', async () => {
    const args = (id: string, secret: string) => [
      'client',
      'create',
      '--name',
      'Dup',
      '--kind',
      'first_party',
      '--client-id',
      id,
      '--client-secret',
      secret,
    ];
    expect((await run(...args('taken-client-id', 'first-secret-0123456'))).exitCode).toBeUndefined();
    const again = await run(...args('taken-client-id', 'other-secret-0123456'));
    expect(again).toMatchObject({ exitCode: 1, err: expect.stringContaining('exists already') });
    const login = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: {
        grant_type: 'client_credentials',
        client_id: 'taken-client-id',
        client_secret: 'first-secret-0123456',
      },
    });
    expect(login.statusCode).toBe(200); // the first registration is untouched
    expect((await run(...args('short', 'first-secret-0123456'))).err).toContain('--client-id must be');
    expect((await run(...args('has space in it', 'first-secret-0123456'))).err).toContain('--client-id must be');
    expect((await run(...args('fine-client-id-2', 'short'))).err).toContain('--client-secret must be');
    const count = await t.deps.db
      .selectFrom('oauth_clients')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('client_id', 'in', ['short', 'has space in it', 'fine-client-id-2'])
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('imports a partner’s weak secret with --allow-weak-secret: warned about, recorded, and it works', async () => {
    // The WordPress plugin's own registration, as its repository publishes it.
    const redirect = 'https://wp.example.com/wp-admin/admin.php?page=rechat-setting&tab=connect-to-rechat';
    const plugin = ['--name', 'WordPress plugin', '--kind', 'partner', '--redirect-uri', redirect];
    const id = '65230631-97a6-4fb5-bf32-54aafb1e1b54';
    const refused = await run('client', 'create', ...plugin, '--client-id', id, '--client-secret', 'secret');
    expect(refused).toMatchObject({ exitCode: 1, err: expect.stringContaining('--allow-weak-secret') });

    const created = await run(
      'client',
      'create',
      ...plugin,
      '--client-id',
      id,
      '--client-secret',
      'secret',
      '--allow-weak-secret',
      '--json',
    );
    expect(created.exitCode, created.err).toBeUndefined();
    expect(JSON.parse(created.out)).toMatchObject({ client_id: id, client_secret: 'secret', weak_secret: true });
    expect(created.err).toMatch(/Warning: the secret of 65230631-\S+ is weak/);
    const row = await t.deps.db
      .selectFrom('oauth_clients')
      .select(['weak_secret', 'secret_hash'])
      .where('client_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ weak_secret: true, secret_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await run('client', 'list')).out).toContain(`${id}  partner  WordPress plugin (weak secret)`);
    // The secret authenticates the client: a bad code is invalid_grant, not invalid_client.
    const exchange = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: {
        grant_type: 'authorization_code',
        client_id: id,
        client_secret: 'secret',
        code: 'nope',
        redirect_uri: redirect,
      },
    });
    expect(exchange.json()).toMatchObject({ error: 'invalid_grant' });

    // Only for a partner (its redirect URIs protect it), only with a secret; strong secrets stay unmarked.
    const firstParty = await run(
      'client',
      'create',
      '--name',
      'Weak app',
      '--kind',
      'first_party',
      '--client-id',
      'weak-first-party',
      '--client-secret',
      'secret',
      '--allow-weak-secret',
    );
    expect(firstParty).toMatchObject({ exitCode: 1, err: expect.stringContaining('partner clients only') });
    const noSecret = await run('client', 'create', ...plugin, '--client-id', 'weak-no-secret', '--allow-weak-secret');
    expect(noSecret).toMatchObject({ exitCode: 1, err: expect.stringContaining('needs --client-secret') });
    const strong = await run(
      'client',
      'create',
      ...plugin,
      '--client-id',
      'strong-with-flag',
      '--client-secret',
      'a-strong-secret-0123456789',
      '--allow-weak-secret',
      '--json',
    );
    expect(JSON.parse(strong.out)).toMatchObject({ weak_secret: false });
    expect(strong.err).not.toContain('Warning');
    const generated = JSON.parse((await run('client', 'create', ...plugin, '--json')).out);
    expect(generated).toMatchObject({
      weak_secret: false,
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
    });
  });
});
