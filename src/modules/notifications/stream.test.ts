// The live stream (GET /notifications/stream): a notification committed through another connection (another
// process on PostgreSQL) reaches the recipient's open stream with the new unseen count; other users' do not;
// seen changes send the count; Last-Event-ID replays what was missed; heartbeats keep it open.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.js';
import { useTestApp } from '../../../test/helpers/app.js';
import { notify } from './notify.js';
import { feedUser, openEventStream, sendNotification } from '../../../test/helpers/notifications.js';

describe('notification stream', () => {
  const t = useTestApp({ env: { STREAM_HEARTBEAT_SECONDS: '1' } });
  let base: string;
  let other: Database | undefined;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    // Another connection to the same database: a second pool (on PostgreSQL a separate session, as another
    // process would have; in embedded mode a second pool over the one PGlite).
    other = await openDatabase({
      databaseUrl: t.deps.config.databaseUrl,
      dataDir: mkdtempSync(join(tmpdir(), 'gable-other-')),
      ...(t.deps.database.pglite ? { pglite: t.deps.database.pglite } : {}),
    });
  });
  afterAll(async () => {
    await other?.close();
  });

  const notifyElsewhere = (recipients: string[], message: string) =>
    other!.db.transaction().execute((trx) => notify(trx, t.deps, { recipients, action: 'Tested', message }));

  it('delivers a notification committed through another connection, and the new unseen count', async () => {
    const user = await feedUser(t.deps);
    const bystander = await feedUser(t.deps);
    const stream = await openEventStream(`${base}/notifications/stream`, user.headers);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
      expect(JSON.parse((await stream.next()).data)).toEqual({ new: 0 });
      await notifyElsewhere([bystander.id], 'not for you');
      const sent = await notifyElsewhere([user.id], 'for you');
      const event = await stream.next();
      expect(event.event).toBe('notification');
      expect(event.id).toBe(String(sent!.recipients[0]!.seq));
      expect(JSON.parse(event.data)).toMatchObject({
        id: sent!.id,
        type: 'notification',
        message: 'for you',
        seen: false,
      });
      expect(JSON.parse((await stream.next()).data)).toEqual({ new: 1 });
      expect(
        (await t.app.inject({ method: 'PATCH', url: '/notifications/seen', headers: user.headers })).statusCode,
      ).toBe(204);
      const count = await stream.next();
      expect([count.event, JSON.parse(count.data)]).toEqual(['unseen', { new: 0 }]);
    } finally {
      await stream.close();
    }
  });

  it('replays what came after Last-Event-ID, oldest first, then goes live', async () => {
    const user = await feedUser(t.deps);
    const first = await sendNotification(t.deps, [user.id], { message: 'one' });
    await sendNotification(t.deps, [user.id], { message: 'two' });
    await sendNotification(t.deps, [user.id], { message: 'three' });
    const stream = await openEventStream(`${base}/notifications/stream`, {
      ...user.headers,
      'last-event-id': String(first!.recipients[0]!.seq),
    });
    try {
      const replayed = [await stream.next(), await stream.next()];
      expect(replayed.map((e) => [e.event, JSON.parse(e.data).message])).toEqual([
        ['notification', 'two'],
        ['notification', 'three'],
      ]);
      expect(Number(replayed[1]!.id)).toBeGreaterThan(Number(replayed[0]!.id));
      expect(JSON.parse((await stream.next()).data)).toEqual({ new: 3 });
      await notifyElsewhere([user.id], 'four');
      expect(JSON.parse((await stream.next()).data).message).toBe('four');
    } finally {
      await stream.close();
    }
  });

  it('sends heartbeats while nothing happens', async () => {
    const user = await feedUser(t.deps);
    const stream = await openEventStream(`${base}/notifications/stream`, user.headers);
    try {
      const heartbeat = await stream.next((e) => e.comments.includes('heartbeat'));
      expect(heartbeat.data).toBe('');
    } finally {
      await stream.close();
    }
  });

  it('refuses a missing token (401) and a malformed Last-Event-ID (400)', async () => {
    const user = await feedUser(t.deps);
    expect((await fetch(`${base}/notifications/stream`)).status).toBe(401);
    const bad = await fetch(`${base}/notifications/stream`, { headers: { ...user.headers, 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ http: 400, code: 'Validation' });
  });
});
