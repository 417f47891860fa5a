// `gable notify USER --message …` (issue 11 item 5): the notification lands in the user's feed, through notify().
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runAdminCommand } from '../../../test/helpers/cli.js';
import { registerNotifyCommand } from './notifications.cli.js';
import { feedUser } from '../../../test/helpers/notifications.js';

describe('gable notify', () => {
  const t = useTestApp();

  it('sends a test notification to the user named by email or id; GET /notifications shows it unseen', async () => {
    const user = await feedUser(t.deps);
    const { email } = await t.deps.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const byEmail = await runAdminCommand(
      registerNotifyCommand,
      t.deps,
      'notify',
      email.toUpperCase(),
      '--message',
      'Hello from the operator',
      '--json',
    );
    expect(byEmail.exitCode, byEmail.err).toBeUndefined();
    const result = JSON.parse(byEmail.out) as { notification: string; user: string; devices: number };
    expect(result).toMatchObject({ user: user.id, devices: 0, pushes_queued: 0, pushes_skipped: 0 });
    const feed = (await t.app.inject({ url: '/notifications', headers: user.headers })).json();
    expect(feed.info.new).toBe(1);
    expect(feed.data[0]).toMatchObject({
      id: result.notification,
      message: 'Hello from the operator',
      notification_type: 'OperatorTested',
      // Nothing acted and it is about nothing: both are arrays all the same (spec §2.10), empty.
      objects: [],
      subjects: [],
    });
    const alone = await t.app.inject({ url: `/notifications/${result.notification}`, headers: user.headers });
    expect(alone.json().data).toMatchObject({ objects: [], subjects: [] });
    const byId = await runAdminCommand(
      registerNotifyCommand,
      t.deps,
      'notify',
      user.id,
      '--message',
      'again',
      '--title',
      'Hi',
    );
    expect(byId.out).toContain('is in their feed');
    expect((await t.app.inject({ url: '/notifications', headers: user.headers })).json().info.new).toBe(2);
  });

  it('refuses an unknown user and an empty message with one line and exit code 1, writing nothing', async () => {
    const before = await t.deps.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const unknown = await runAdminCommand(
      registerNotifyCommand,
      t.deps,
      'notify',
      'nobody@example.com',
      '--message',
      'x',
    );
    expect([unknown.exitCode, unknown.err]).toEqual([1, 'error: User nobody@example.com not found']);
    const user = await feedUser(t.deps);
    const empty = await runAdminCommand(registerNotifyCommand, t.deps, 'notify', user.id, '--message', '  ');
    expect(empty.exitCode).toBe(1);
    const after = await t.deps.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('exposes the push counter family in /metrics, every provider and outcome at 0', async () => {
    const metrics = (await t.app.inject({ url: '/metrics' })).body;
    for (const provider of ['webpush', 'fcm', 'apns'])
      expect(metrics).toContain(`gable_pushes_total{provider="${provider}",outcome="dead_token"} 0`);
  });
});
