// The feed of the calling user (decisions §10): only their own notifications exist for them (another user's id
// answers 404). Seen-state changes announce the new unseen count to the live stream in the same transaction.
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import type { BearerRead } from '../auth/index.js';
import { feedBody, type Serialize } from './feed-json.js';
import {
  feedPageJson,
  findBearerWithFeedPage,
  MARKER_NONCE,
  type BearerWithFeedPage,
  type FeedPageJson,
} from './feed-page.repository.js';
import { presentFeed } from './notifications.presenter.js';
import * as repo from './notifications.repository.js';
import {
  FEED_DEFAULT_LIMIT,
  FEED_MAX_LIMIT,
  type FeedQuery,
  type NotificationRecord,
} from './notifications.schemas.js';
import { MAX_START } from '../../platform/schemas.js';

interface Paging {
  start: number;
  limit: number;
}

/** The bearer row of GET /notifications with the page it read, and the paging that page was read with. */
export type BearerWithFeed = BearerWithFeedPage & { paging: Paging };

/**
 * `config.bearerRead` of GET /notifications (modules/auth/authenticate.ts): the token and the first page in one round trip.
 * Authentication runs before the query string is validated, so the paging is read from it as the schema would
 * take it, with the defaults for anything else; feedJson reads the page again if validation took it otherwise.
 */
export function feedBearerRead(deps: Deps): BearerRead {
  return async (tokenHash, request) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const paging = {
      start: rawInteger(query.start, 0, MAX_START, 0),
      limit: rawInteger(query.limit, 1, FEED_MAX_LIMIT, FEED_DEFAULT_LIMIT),
    };
    const row = await findBearerWithFeedPage(deps.database, tokenHash, paging.start, paging.limit, MARKER_NONCE);
    return row && { ...row, paging };
  };
}

function rawInteger(value: unknown, min: number, max: number, fallback: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : fallback;
}

/** The body of GET /notifications: newest first, `info.new` the unseen count over the whole feed. */
export async function feedJson(
  deps: Deps,
  user: string,
  query: FeedQuery,
  withBearer: BearerWithFeed | null,
  serialize: Serialize,
): Promise<string> {
  const read =
    withBearer !== null &&
    withBearer.page !== null &&
    withBearer.paging.start === query.start &&
    withBearer.paging.limit === query.limit;
  const page = read
    ? (withBearer as FeedPageJson)
    : await feedPageJson(deps.database, user, query.start, query.limit, MARKER_NONCE);
  if (!page) throw new Error('the feed page statement answers one row');
  return feedBody(deps.db, page, deps.clock.now(), serialize);
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
    await repo.lockFeed(trx, user);
    if (id !== null && (await repo.ownedIds(trx, user, [id])).length === 0) throw errors.notFound('Notification');
    const changed = await repo.markSeen(trx, user, id, deps.clock.now(), id !== null);
    if (changed > 0) await repo.announce(trx, [{ u: user }]);
  });
}

/** Removes from the caller's feed these notifications (all or nothing: 404 if one is not theirs), or all. */
export async function deleteNotifications(deps: Deps, user: string, ids: string[] | null): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await repo.lockFeed(trx, user);
    let wanted: string[] | null = null;
    if (ids !== null) {
      wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
      const owned = await repo.ownedIds(trx, user, wanted);
      if (owned.length !== wanted.length)
        throw errors.notFound(wanted.length === 1 ? 'Notification' : 'One of the notifications');
    }
    const changed = await repo.deleteFromFeed(trx, user, wanted, deps.clock.now());
    if (changed > 0) await repo.announce(trx, [{ u: user }]);
  });
}
