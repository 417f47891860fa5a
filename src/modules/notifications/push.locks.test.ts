// The push worker records sent pushes for several recipients in one statement (push.repository.ts markSent),
// which also sets their recipients' `delivered_at`. A feed change of one of those recipients (mark all seen,
// delete several) locks the same recipient rows in its own order: without a common first lock the two could
// each hold a row the other needs, and PostgreSQL would abort one with a deadlock (the push batch would fail and
// be retried, repeating pushes). Run at once on PostgreSQL (in turn on PGlite), many rounds.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import * as pushRepo from './push.repository.js';
import { deleteNotifications, markSeen } from './notifications.service.js';
import { feedUser, sendNotification } from '../../../test/helpers/notifications.js';

describe('recording sent pushes beside feed changes', () => {
  const t = useTestApp();

  it('never deadlocks with mark-all-seen and multi-id deletes of the same recipients', async () => {
    const users = [await feedUser(t.deps), await feedUser(t.deps), await feedUser(t.deps)].map((user) => user.id);
    let failures: unknown[] = [];
    let sent = 0;
    for (let round = 0; round < 25; round++) {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push((await sendNotification(t.deps, users, { message: `r${round} n${i}` }))!.id);
      const { rows: pushes } = await sql<{
        id: string;
      }>`insert into push_deliveries (notification, "user", provider, app, status)
        select n.id, u.id, 'webpush', 'test', 'pending' from unnest(${ids}::uuid[]) as n(id) cross join unnest(${users}::uuid[]) as u(id)
        returning id`.execute(t.deps.db);
      // Reversed: the statement meets the recipients in an order unlike the feed changes'.
      const batch = pushes
        .reverse()
        .map((push) => ({ id: push.id, expected: 0, attempts: 1, last_status: 201, at: new Date() }));
      const results = await Promise.allSettled([
        pushRepo.markSent(t.deps.db, batch),
        markSeen(t.deps, users[0]!, null),
        deleteNotifications(t.deps, users[1]!, [ids[1]!, ids[5]!, ids[6]!]),
        markSeen(t.deps, users[2]!, null),
        deleteNotifications(t.deps, users[0]!, [ids[7]!, ids[2]!]),
      ]);
      failures = [...failures, ...results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))];
      const first = results[0];
      if (first.status === 'fulfilled') sent += first.value.size;
    }
    expect(failures).toEqual([]);
    expect(sent).toBe(25 * 8 * 3);
    const { rows } = await sql<{ undelivered: number }>`select count(*)::int as undelivered from notification_recipients
      where "user" = any(${users}::uuid[]) and delivered_at is null`.execute(t.deps.db);
    expect(rows[0]!.undelivered).toBe(0);
  });
});
