// Two paths, one answer: GET /notifications writes its page as JSON in PostgreSQL (feed-page.repository.ts),
// GET /notifications/:id presents the row in TypeScript (notifications.presenter.ts). Every record of the feed
// must equal the record of the same notification read alone, whatever its fields hold.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { feedJson } from './notifications.service.js';
import { feedUser, sendNotification } from '../../../test/helpers/notifications.js';

describe('the feed page written by PostgreSQL', () => {
  const t = useTestApp();
  let listing: string;
  beforeAll(async () => {
    await t.app.inject({
      method: 'POST',
      url: '/mls/NTREIS/listings',
      headers: await clientHeaders(t.deps),
      payload: [sampleListing('J-1')],
    });
    listing = (
      await t.deps.db.selectFrom('listings').select('id').where('mls_number', '=', 'J-1').executeTakeFirstOrThrow()
    ).id;
  });

  it('answers for every notification exactly what GET /notifications/:id answers', async () => {
    const reader = await feedUser(t.deps);
    const actor = await feedUser(t.deps);
    const missing = randomUUID();
    // Text that looks like a marker of an embedded record, with a nonce that is not the process's.
    const lookalike = `"${'f'.repeat(32)}U${actor.id}"`;
    const variants = [
      {},
      {
        action: 'BecameAvailable',
        object: actor.id,
        object_class: 'User',
        subject: listing,
        subject_class: 'Listing',
        title: 'New "listing" \\ here',
        message: 'Ünïcødé 🏠 "quoted" \u0001 control, </script>',
        sound: 'default',
        app: 'rechat',
        data: { nested: { list: [1, 2.5, null, true], text: 'tab\there', lookalike }, empty: {} },
        exclude: [missing],
        auxiliary_object: randomUUID(),
        auxiliary_object_class: 'Room',
        auxiliary_subject: randomUUID(),
        auxiliary_subject_class: 'Deal',
        extra_object_class: 'Contact',
        extra_subject_class: 'Brand',
        room: randomUUID(),
        recommendation: randomUUID(),
        phone_number: '+12145550100',
        transports: ['push', 'email'],
      },
      { object: missing, object_class: 'User', subject: missing, subject_class: 'Listing', message: lookalike },
      { object: null, object_class: 'User', subject: null, subject_class: 'Listing' },
      { object: actor.id, object_class: 'Contact', subject: listing, subject_class: 'Deal', data: null },
    ];
    for (const fields of variants) {
      await sendNotification(t.deps, [reader.id], fields);
      t.clock.advance(1);
    }
    // Timestamps with microseconds, and one before 1970: both paths keep milliseconds the way a JS Date does.
    await sql`update notification_recipients set seen_at = '2026-01-02 03:04:05.678999+00', acked_at = '1969-12-31 23:59:59.9995+00',
      delivered_at = '2026-03-04 05:06:07.000001+00' where "user" = ${reader.id} and seq = (select min(seq) from notification_recipients where "user" = ${reader.id})`.execute(
      t.deps.db,
    );
    await sql`update notifications n set created_at = '2026-05-06 07:08:09.123456+00' from notification_recipients r
      where r.notification = n.id and r."user" = ${reader.id} and n.message = ${lookalike}`.execute(t.deps.db);
    // A notification changed after it was written (nothing does today; the feed's stored part must follow).
    await sql`update notifications n set title = 'Changed', data = '{"changed": true}' from notification_recipients r
      where r.notification = n.id and r."user" = ${reader.id} and n.object_class = 'Contact'`.execute(t.deps.db);

    const res = await t.app.inject({ url: '/notifications?limit=200', headers: reader.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const feed = res.json() as { data: { id: string }[]; info: unknown };
    expect(feed.info).toEqual({ count: variants.length, total: variants.length, new: variants.length - 1 });
    for (const record of feed.data) {
      const alone = await t.app.inject({ url: `/notifications/${record.id}`, headers: reader.headers });
      expect(record).toEqual(alone.json().data);
    }
    const rich = feed.data[variants.length - 2] as unknown as Record<string, unknown>;
    expect(rich.objects).toEqual([expect.objectContaining({ id: actor.id, type: 'user' })]);
    expect(rich.subjects).toEqual([expect.objectContaining({ id: listing, type: 'listing' })]);
    expect(rich.data).toMatchObject({ nested: { lookalike } });
    expect(feed.data[variants.length - 3]).toMatchObject({ objects: [], subjects: [], message: lookalike });
    expect(feed.data[0]).toMatchObject({ title: 'Changed', data: { changed: true } });
  });

  it('writes epoch seconds exactly as the presenter does, for any microsecond from 1900 to 2100', async () => {
    // Whole milliseconds (where a rounding error would floor to the one before), a millisecond's last microsecond,
    // and random instants; the presenter's value is what pg's parser makes of the same timestamp, over 1,000.
    // feed_epoch is what the triggers of the stored record parts use (migration 2026-11-28T0900).
    const rows = await sql<{ at: Date; seconds: number }>`
      select at, feed_epoch(at) as seconds from (
        select timestamptz '2026-01-02 03:04:05.679+00' as at union all select timestamptz '2026-01-02 03:04:05.679999+00'
        union all select timestamptz '1969-12-31 23:59:59.999+00' union all select timestamptz '1900-01-01 00:00:00.001+00'
        union all select timestamptz '2099-12-31 23:59:59.999999+00'
        union all select timestamptz '1900-01-01 00:00:00+00' + make_interval(secs => floor(random() * 6311433600 * 1000000) / 1000000)
          from generate_series(1, 1000)
      ) t(at)`.execute(t.deps.db);
    expect(rows.rows).toHaveLength(1005);
    for (const row of rows.rows) expect(row.seconds, row.at.toISOString()).toBe(row.at.getTime() / 1000);
  });

  it('reads the page again when the paging it was read with is not the one validated', async () => {
    const reader = await feedUser(t.deps);
    for (let i = 0; i < 3; i++) await sendNotification(t.deps, [reader.id], { message: `m${i}` });
    const body = await feedJson(t.deps, reader.id, { start: 1, limit: 1 }, null, (value) => JSON.stringify(value));
    expect(JSON.parse(body)).toMatchObject({
      code: 'OK',
      data: [{ message: 'm1' }],
      info: { count: 1, total: 3, new: 3 },
    });
    // A query string the bearer read cannot take as given is answered by the schema, with nothing read for it.
    expect((await t.app.inject({ url: '/notifications?limit=abc', headers: reader.headers })).statusCode).toBe(400);
  });
});
