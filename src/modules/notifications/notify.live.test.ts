// Issue 11 "done when", on the embedded database: `gable serve` holds DATA_DIR, and `gable notify` in another
// process sends through that server (the operator channel, platform/operator-channel.ts): the notification is in
// the feed and arrives on an open stream. A real server process and real CLI processes; embedded even when the
// suite runs on PostgreSQL (the channel exists only there).
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_SECRET_KEY } from '../../../test/helpers/app.js';
import { runGable, spawnGable } from '../../../test/helpers/cli.js';
import { bearer, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { firstStartSteps } from '../../bootstrap.js';
import { loadConfig } from '../../config.js';
import { PGLITE_EXTENSIONS } from '../../db/database.js';
import { acquireLock } from '../../db/lock.js';
import { closeDeps, createDeps } from '../../deps.js';
import { OPERATOR_CHANNEL_FILE } from '../../platform/operator-channel.js';
import { insertMessages } from '../../mail/mail.repository.js';
import { messageIdFor, sendQueuedMessages } from '../../mail/mail.service.js';
import { openEventStream } from '../../../test/helpers/notifications.js';

type Failure = { code: number; stdout: string; stderr: string };

const dir = mkdtempSync(join(tmpdir(), 'gable-notify-live-'));
const dataDir = join(dir, 'data');
const EMAIL = 'admin@demo.example.com';
let port = 0;
let headers: Record<string, string> = {};
let server: ChildProcess | undefined;
let mailId: string | undefined;

const env = () => ({
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  PORT: String(port),
  BASE_URL: `http://127.0.0.1:${port}`,
  SECRET_KEY: TEST_SECRET_KEY,
  LOG_LEVEL: 'silent',
});
const api = (path: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    ...init,
    headers: { ...headers, ...(init.headers as Record<string, string>) },
  });
const unseen = async () =>
  ((await (await api('/notifications')).json()) as { info: { new: number; total: number } }).info;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: free } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return free;
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

beforeAll(async () => {
  port = await freePort();
  mkdirSync(dataDir, { recursive: true });
  const source = inject('testDatabase');
  if (source.kind === 'pglite') {
    const seed = await PGlite.create({
      dataDir: join(dataDir, 'pgdata'),
      loadDataDir: new Blob([readFileSync(source.dumpFile)]),
      extensions: PGLITE_EXTENSIONS,
    });
    await seed.close();
  } else {
    await runGable(['migrate'], env());
  }
  // The user and their token, written while no server holds the directory; the first start marked done (its demo
  // data would only slow the server's start).
  const pglite = await PGlite.create({ dataDir: join(dataDir, 'pgdata'), extensions: PGLITE_EXTENSIONS });
  const deps = await createDeps(loadConfig(env()), { pglite });
  try {
    const user = await createUser(deps, { email: EMAIL });
    headers = bearer(await tokenFor(deps, user.id));
    // One message the embedded mail transport writes as an .eml, for `gable mail` below.
    mailId = randomUUID();
    await insertMessages(deps.db, [
      {
        id: mailId,
        campaign: null,
        brand: null,
        contact: null,
        purpose: 'test',
        extmail_credential: null,
        message_id: messageIdFor(deps, mailId),
        from_address: deps.config.mailFrom,
        to_addresses: ['dana@example.com'],
        cc_addresses: [],
        bcc_addresses: [],
        subject: 'Open house',
        html: '<p>Saturday</p>',
        text_body: 'Saturday',
        headers: {},
        not_before: null,
        at: new Date(),
      },
    ]);
    await sendQueuedMessages(deps, [mailId]);
    for (const step of firstStartSteps)
      await deps.db
        .insertInto('first_start_steps')
        .values({ name: step.name, started_at: new Date(), completed_at: new Date() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
  } finally {
    await closeDeps(deps);
    await pglite.close();
  }
  server = spawnGable(['serve'], env());
  // The channel file is written once the API listens.
  const started = Date.now();
  while (!existsSync(join(dataDir, OPERATOR_CHANNEL_FILE))) {
    if (server.exitCode !== null || Date.now() - started > 120_000)
      throw new Error(`gable serve did not start (exit code ${server.exitCode})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 240_000);

afterAll(async () => {
  if (server) {
    server.kill('SIGTERM');
    await exited(server);
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('gable notify while gable serve holds the embedded database', () => {
  it('sends through the running server: in the feed, live on the stream, then seen', { timeout: 120_000 }, async () => {
    const stream = await openEventStream(`http://127.0.0.1:${port}/notifications/stream`, headers);
    try {
      expect(stream.response.status).toBe(200);
      expect(JSON.parse((await stream.next((e) => e.event === 'unseen')).data)).toEqual({ new: 0 });

      const sent = await runGable(['notify', EMAIL, '--message', 'hi', '--json'], env());
      expect(sent.stderr).toContain('ran in that server');
      const result = JSON.parse(sent.stdout) as { notification: string; email: string; seq: number };
      expect(result).toMatchObject({ email: EMAIL, devices: 0, pushes_queued: 0 });

      const event = await stream.next((e) => e.event === 'notification');
      expect(event.id).toBe(String(result.seq));
      expect(JSON.parse(event.data)).toMatchObject({
        id: result.notification,
        message: 'hi',
        notification_type: 'OperatorTested',
      });
      expect(JSON.parse((await stream.next((e) => e.event === 'unseen')).data)).toEqual({ new: 1 });
    } finally {
      await stream.close();
    }
    expect(await unseen()).toMatchObject({ new: 1, total: 1 });
    expect((await api('/notifications/seen', { method: 'PATCH' })).status).toBe(204);
    expect(await unseen()).toMatchObject({ new: 0, total: 1 });
  });

  it('gable mail list and show read the mail through the running server', { timeout: 60_000 }, async () => {
    const list = await runGable(['mail', 'list'], env());
    expect(list.stderr).toContain('ran in that server');
    expect(list.stdout).toContain(`${mailId}`);
    expect(list.stdout).toContain('"Open house"');
    const show = await runGable(['mail', 'show', mailId!], env());
    expect(show.stdout).toContain(`Message-ID: <${mailId}@127.0.0.1>`);
    expect(show.stdout).toContain('Subject: Open house');
    const missing = await runGable(['mail', 'show', '00000000-0000-4000-8000-000000000000'], env()).then(
      () => null,
      (error: Failure) => error,
    );
    expect([missing?.code, missing?.stderr.trim().split('\n').at(-1)]).toEqual([
      1,
      'error: Message 00000000-0000-4000-8000-000000000000 not found',
    ]);
  });

  it('gable admin client create and list run through the running server', { timeout: 60_000 }, async () => {
    const create = (clientId: string) =>
      runGable(
        ['admin', 'client', 'create', '--kind', 'partner', '--name', 'WordPress plugin', '--json']
          .concat(['--client-id', clientId, '--client-secret', 'the-plugin-secret-0123456789'])
          .concat(['--redirect-uri', 'https://wp.example.com/wp-admin/admin.php?page=rechat-setting']),
        env(),
      );
    const created = await create('wp-plugin-live-01');
    expect(created.stderr).toContain('ran in that server');
    expect(JSON.parse(created.stdout)).toMatchObject({
      client_id: 'wp-plugin-live-01',
      client_secret: 'the-plugin-secret-0123456789',
      kind: 'partner',
      weak_secret: false,
    });
    const listed = await runGable(['admin', 'client', 'list'], env());
    expect(listed.stderr).toContain('ran in that server');
    expect(listed.stdout).toContain('wp-plugin-live-01  partner  WordPress plugin');
    const again = await create('wp-plugin-live-01').then(
      () => null,
      (error: Failure) => error,
    );
    expect([again?.code, again?.stderr.trim().split('\n').at(-1)]).toEqual([
      1,
      'error: A client with client_id wp-plugin-live-01 exists already (deleted clients keep their id); nothing was written',
    ]);
  });

  it('prints the server’s refusal of a mistake as one line, exit code 1', { timeout: 60_000 }, async () => {
    const failure = await runGable(['notify', 'nobody@example.com', '--message', 'x'], env()).then(
      () => null,
      (error: Failure) => error,
    );
    expect([failure?.code, failure?.stderr.trim().split('\n').at(-1)]).toEqual([
      1,
      'error: User nobody@example.com not found',
    ]);
  });

  it('answers only the secret of DATA_DIR/operator.json (mode 0600), only on its own port', async () => {
    const file = join(dataDir, OPERATOR_CHANNEL_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { port: channel, secret } = JSON.parse(readFileSync(file, 'utf8')) as { port: number; secret: string };
    expect(channel).not.toBe(port);
    const call = (authorization: string | null, method = 'POST') =>
      fetch(`http://127.0.0.1:${channel}/notify`, {
        method,
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        ...(method === 'POST' ? { body: JSON.stringify({ user: EMAIL, message: 'forged' }) } : {}),
      });
    const before = await unseen();
    expect((await call(null)).status).toBe(401);
    expect((await call(`Bearer ${secret.slice(1)}x`)).status).toBe(401);
    expect((await call(`Bearer ${secret}`, 'GET')).status).toBe(405);
    // The API has no such route: an API client cannot reach the action.
    expect(
      (
        await api('/notify', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
          body: '{}',
        })
      ).status,
    ).toBe(404);
    expect(await unseen()).toEqual(before);
    const empty = await fetch(`http://127.0.0.1:${channel}/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ user: EMAIL, message: ' ' }),
    });
    expect(empty.status).toBe(400);
    expect(await unseen()).toEqual(before);
  });

  it('says what to do when the directory is held by a process without a channel', { timeout: 60_000 }, async () => {
    const other = join(dir, 'other');
    mkdirSync(other, { recursive: true });
    const lock = acquireLock(join(other, 'gable.lock'));
    try {
      const failure = await runGable(['notify', EMAIL, '--message', 'x'], { ...env(), DATA_DIR: other }).then(
        () => null,
        (error: Failure) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain('offers no operator channel');
    } finally {
      lock.release();
    }
  });

  it('removes DATA_DIR/operator.json when the server stops', { timeout: 60_000 }, async () => {
    server!.kill('SIGTERM');
    await exited(server!);
    expect(existsSync(join(dataDir, OPERATOR_CHANNEL_FILE))).toBe(false);
  });
});
