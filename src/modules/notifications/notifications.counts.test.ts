// The feed counters (migration 2026-11-26T0200-notification-counts): `info.total`/`info.new` and the badge read
// one row that triggers keep in the transaction of every change. Checked against a recount of the feed after each
// kind of change, and under concurrent changes (PostgreSQL runs them at once; PGlite, one connection, in turn).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import type { Deps } from '../../platform/deps.js';
import * as repo from './notifications.repository.js';
import { deleteNotifications, markSeen } from './notifications.service.js';
import { feedUser, sendNotification } from '../../../test/helpers/notifications.js';

/** The counts as the feed itself says: what the counter must always equal. */
async function recount(deps: Deps, user: string) {
  const { rows } = await sql<{ total: number; unseen: number }>`
    select count(*)::int as total, count(*) filter (where seen_at is null)::int as unseen
    from notification_recipients where "user" = ${user} and deleted_at is null`.execute(deps.db);
  return rows[0]!;
}

/** A gate a test opens when it wants. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('notification feed counters', () => {
  const t = useTestApp();
  const counts = (user: string) => repo.feedCounts(t.deps.db, user);

  it('follow notify(), seen (one, again, all), delete (one, several, all) and bulk writes, for each recipient alone', async () => {
    const alice = await feedUser(t.deps);
    const bob = await feedUser(t.deps);
    expect(await counts(alice.id)).toEqual({ total: 0, unseen: 0 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(
        (await sendNotification(t.deps, i % 2 === 0 ? [alice.id, bob.id] : [alice.id], { message: `n${i}` }))!.id,
      );
    expect(await counts(alice.id)).toEqual({ total: 6, unseen: 6 });
    expect(await counts(bob.id)).toEqual({ total: 3, unseen: 3 });

    await markSeen(t.deps, alice.id, ids[0]!);
    await markSeen(t.deps, alice.id, ids[0]!); // again: no change
    expect(await counts(alice.id)).toEqual({ total: 6, unseen: 5 });
    await deleteNotifications(t.deps, alice.id, [ids[0]!]); // a seen one
    await deleteNotifications(t.deps, alice.id, [ids[1]!, ids[2]!]); // unseen ones
    expect(await counts(alice.id)).toEqual({ total: 3, unseen: 3 });
    expect(await counts(bob.id)).toEqual({ total: 3, unseen: 3 }); // bob keeps his
    await markSeen(t.deps, alice.id, null);
    expect(await counts(alice.id)).toEqual({ total: 3, unseen: 0 });
    expect(await counts(alice.id)).toEqual(await recount(t.deps, alice.id));

    // A bulk write straight to the table (as the bench does) counts too, seen rows as seen.
    await sql`
      with created as (
        insert into notifications (action, notification_type, message, transports) select 'Tested', 'BulkTested', 'bulk ' || n, '{}' from generate_series(1, 50) as n returning id, message
      )
      insert into notification_recipients (notification, "user", seen_at)
      select id, u, case when right(message, 1) in ('0', '5') then now() end from created, unnest(${[alice.id, bob.id]}::uuid[]) as u`.execute(
      t.deps.db,
    );
    expect(await counts(alice.id)).toEqual({ total: 53, unseen: 40 });
    expect(await counts(bob.id)).toEqual(await recount(t.deps, bob.id));

    await deleteNotifications(t.deps, alice.id, null);
    expect(await counts(alice.id)).toEqual({ total: 0, unseen: 0 });
    // A hard delete (none of ours does it) keeps them right too.
    await t.deps.db
      .deleteFrom('notification_recipients')
      .where('user', '=', bob.id)
      .where('seen_at', 'is', null)
      .execute();
    expect(await counts(bob.id)).toEqual(await recount(t.deps, bob.id));
    expect((await t.app.inject({ url: '/notifications', headers: bob.headers })).json().info).toMatchObject(
      await recount(t.deps, bob.id).then((c) => ({ total: c.total, new: c.unseen })),
    );
  });

  it('never decrements twice when two transactions mark the same notification seen at once', async () => {
    const carol = await feedUser(t.deps);
    const [a, b] = [await sendNotification(t.deps, [carol.id]), await sendNotification(t.deps, [carol.id])];
    // The first marks `a` seen and holds its transaction open; the second marks `a` (one) and then all seen
    // meanwhile. On PostgreSQL the second waits on the first's row lock and then sees `a` already seen.
    const held = gate();
    const updated = gate();
    const first = t.deps.db.transaction().execute(async (trx) => {
      await repo.markSeen(trx, carol.id, a!.id, t.deps.clock.now(), true);
      updated.open();
      await held.opened;
    });
    await updated.opened;
    const second = t.deps.db.transaction().execute(async (trx) => {
      await repo.markSeen(trx, carol.id, a!.id, t.deps.clock.now(), true);
      await repo.markSeen(trx, carol.id, null, t.deps.clock.now(), false);
    });
    setTimeout(held.open, 200); // let the second reach the lock (either order must count right)
    await Promise.all([first, second]);
    expect(await counts(carol.id)).toEqual({ total: 2, unseen: 0 });
    expect(b).not.toBeNull();
  });

  it('stay equal to a recount under many concurrent notify, seen and delete calls', async () => {
    const dave = await feedUser(t.deps);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await sendNotification(t.deps, [dave.id]))!.id);
    await Promise.all([
      // (not the two deleted meanwhile: marking one of those would be a 404, whichever came first)
      ...ids.slice(2).map((id) => markSeen(t.deps, dave.id, id)),
      ...ids.slice(2).map((id) => markSeen(t.deps, dave.id, id)),
      markSeen(t.deps, dave.id, null),
      deleteNotifications(t.deps, dave.id, [ids[0]!, ids[1]!]),
      ...Array.from({ length: 5 }, () => sendNotification(t.deps, [dave.id])),
    ]);
    // Every one of the first ten is seen (or deleted) by now; of the five new ones, those after the mark-all are not.
    const after = await counts(dave.id);
    expect(after).toEqual(await recount(t.deps, dave.id));
    expect(after.total).toBe(13);
    await markSeen(t.deps, dave.id, null);
    expect(await counts(dave.id)).toEqual({ total: 13, unseen: 0 });
  });
});
