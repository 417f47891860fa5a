// The page of GET /notifications as JSON text written by PostgreSQL, read with the bearer token in ONE round trip.
//
// Why: the feed is what every client polls. Read as rows, a page of 20 cost more than four times the baseline's
// CPU: a second round trip for the token, 700 fields parsed (100 of them timestamps), 20 records built and then
// serialized again. Here the page is JSON text from PostgreSQL, which the server sends as it came: each record is
// the notification's own part, kept as JSON on its row by a trigger (`record_head`, migrations 2026-11-28T0600 and
// T0900: written once, read by every poll; kept open, without its closing brace, so that a read appends to it
// without cutting it), completed with the recipient's state, kept as a JSON fragment on the recipient's row by a
// trigger too (`state_json`, migration 2026-11-28T0910: written when a time of it changes). The record is the one of
// notifications.presenter.ts (which GET /notifications/:id and the stream still use); feed-json.test.ts holds
// the two to the same answer.
//
// What PostgreSQL cannot write are the embedded records (`objects` as user records, `subjects` as listing
// records): their presenters are ours. Their place is left as a marker, `"<nonce>U<user id>"` or
// `"<nonce>L<listing id>"`, which notifications.feed-json.ts replaces with the record. The nonce is random per
// process and never leaves it, so no text of a notification (a message, `data`) can pose as a marker.
import { randomBytes } from 'node:crypto';
import { sql, type Compilable, type RawBuilder } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import { bearerQuery, type BearerRow } from '../auth/index.js';

export const MARKER_NONCE = randomBytes(16).toString('hex');

/** A page as the statement answers it: `page` is the JSON array of the records, with markers. */
export interface FeedPageJson {
  page: string;
  count: number;
  total: number;
  unseen: number;
}

/** The page `start`/`limit` of `user`'s feed, newest first, with the feed's counts: one row, always. */
function feedPageJsonQuery(user: RawBuilder<string | null>, start: number, limit: number, nonce: string) {
  // The page is cut from the recipient rows alone, on their feed index ("user", seq desc, live rows only), and
  // only its rows are joined to their notifications, one primary-key probe each (OFFSET 0 keeps the planner from
  // hashing the whole table: a 200-row page at OFFSET 2000 of a 10,000 feed, 10.9 → 1.5 ms).
  // OFFSET and LIMIT are sub-selects so that no plan knows their values: with plain parameters, each execution's
  // own plan (LIMIT 20) looks far cheaper than the shared one (which guesses a tenth of the feed), PostgreSQL
  // never settles on the shared plan, and plans the whole statement, bearer joins included, on every request
  // (0.4–1.4 ms, more than running it).
  return sql<FeedPageJson>`(
    select fp.page, fp.count, coalesce(c.total, 0)::int as total, coalesce(c.unseen, 0)::int as unseen
    from (select
      coalesce('[' || string_agg(x.json, ',' order by p.seq desc) || ']', '[]') as page,
      count(*)::int as count
    from (
      select notification, seq, state_json from notification_recipients
      where "user" = ${user} and deleted_at is null order by seq desc offset (select ${start}::int) limit (select ${limit}::int)
    ) p
    cross join lateral (
      select record_head, object, object_class, subject, subject_class from notifications
      where id = p.notification and deleted_at is null offset 0
    ) n
    cross join lateral (
      select n.record_head || p.state_json
        || ',"objects":' || case when n.object_class = 'User' and n.object is not null
             then '["' || ${nonce} || 'U' || n.object || '"]' else '[]' end
        || ',"subjects":' || case when n.subject_class = 'Listing' and n.subject is not null
             then '["' || ${nonce} || 'L' || n.subject || '"]' else '[]' end
        || '}' as json
    ) x
    ) fp
    left join notification_counts c on c."user" = ${user}
  )`;
}

export type BearerWithFeedPage = BearerRow & { [K in keyof FeedPageJson]: FeedPageJson[K] | null };

/** The bearer row with the page of its user's feed beside it (`config.bearerRead` of GET /notifications). */
export const findBearerWithFeedPage = preparedQuery<[Buffer, number, number, string], BearerWithFeedPage>(
  'notifications.find-bearer-with-feed-page',
  [Buffer.alloc(32), -1, -2, 'nonce-stand-in'],
  (db, tokenHash, start, limit, nonce) =>
    bearerQuery(db, tokenHash)
      .leftJoinLateral(feedPageJsonQuery(sql.ref<string | null>('f.user'), start, limit, nonce).as('fp'), (join) =>
        join.onTrue(),
      )
      .selectAll('fp') as unknown as Compilable<BearerWithFeedPage>,
);

/** The page alone, for a request whose validated paging differs from what the bearer read guessed. */
export const feedPageJson = preparedQuery<[string, number, number, string], FeedPageJson>(
  'notifications.feed-page-json',
  ['00000000-0000-0000-0000-0000000feed1', -3, -4, 'nonce-stand-in-2'],
  (db, user, start, limit, nonce) =>
    db
      .selectFrom(feedPageJsonQuery(sql`${user}::uuid`, start, limit, nonce).as('fp'))
      .selectAll() as unknown as Compilable<FeedPageJson>,
);
