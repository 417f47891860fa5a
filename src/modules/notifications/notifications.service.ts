// The feed of the calling user (decisions §10): only their own notifications exist for them (another user's id
// answers 404). Seen-state changes announce the new unseen count to the live stream in the same transaction.
import type { Deps } from '../../deps.js';
import { errors } from '../../errors.js';
import { presentFeed } from './notifications.presenter.js';
import * as repo from './notifications.repository.js';
import type { FeedQuery, NotificationRecord } from './notifications.schemas.js';

export async function listFeed(deps: Deps, user: string, query: FeedQuery) {
  const rows = await repo.feedPage(deps.database, user, query.start, query.limit);
  const first = rows[0];
  const counts = first ? { total: Number(first.feed_total ?? 0), unseen: Number(first.feed_unseen ?? 0) } : await repo.feedCounts(deps.db, user);
  return { records: await presentFeed(deps.db, rows, deps.clock.now()), total: counts.total, unseen: counts.unseen };
}

export async function getNotification(deps: Deps, user: string, id: string): Promise<NotificationRecord> {
  const row = await repo.findFeedRow(deps.db, user, id);
  if (!row) throw errors.notFound('Notification');
  const [record] = await presentFeed(deps.db, [row], deps.clock.now());
  return record!;
}

/** One notification seen (and acknowledged: the user acted on it), or with `id` null every unseen one. */
export async function markSeen(deps: Deps, user: string, id: string | null): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (id !== null && (await repo.ownedIds(trx, user, [id])).length === 0) throw errors.notFound('Notification');
    const changed = await repo.markSeen(trx, user, id, deps.clock.now(), id !== null);
    if (changed > 0) await repo.announce(trx, [{ u: user }]);
  });
}

/** Removes from the caller's feed these notifications (all or nothing: 404 if one is not theirs), or all. */
export async function deleteNotifications(deps: Deps, user: string, ids: string[] | null): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    let wanted: string[] | null = null;
    if (ids !== null) {
      wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
      const owned = await repo.ownedIds(trx, user, wanted);
      if (owned.length !== wanted.length) throw errors.notFound(wanted.length === 1 ? 'Notification' : 'One of the notifications');
    }
    const changed = await repo.deleteFromFeed(trx, user, wanted, deps.clock.now());
    if (changed > 0) await repo.announce(trx, [{ u: user }]);
  });
}
