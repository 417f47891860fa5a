// The feed (spec §2.10, §4.8, decisions §10): notify() in a transaction, newest first, `info.new` over all pages,
// seen vs acked, deleting from one's own feed, and ownership (another user's notification is 404).
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { notify } from './notify.js';
import { feedUser, sendNotification } from '../../../test/helpers/notifications.js';

describe('notification feed', () => {
  const t = useTestApp();
  const feed = async (headers: Record<string, string>, query = '') => {
    const res = await t.app.inject({ url: `/notifications${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      data: { id: string; message: string; seen: boolean; seen_at: number | null; acked_at: number | null }[];
      info: { count: number; total: number; new: number };
    };
  };

  it('lists newest first with info.new counted over every page, and pages by start/limit (default 20, at most 200)', async () => {
    const alice = await feedUser(t.deps);
    for (let i = 0; i < 25; i++) {
      await sendNotification(t.deps, [alice.id], { message: `n${i}` });
      t.clock.advance(1);
    }
    const first = await feed(alice.headers);
    expect(first.info).toEqual({ count: 20, total: 25, new: 25 });
    expect(first.data.map((n) => n.message).slice(0, 3)).toEqual(['n24', 'n23', 'n22']);
    const second = await feed(alice.headers, '?start=20&limit=10');
    expect(second.info).toEqual({ count: 5, total: 25, new: 25 });
    expect(second.data.at(-1)!.message).toBe('n0');
    // past the end: no row carries the counts, which are still the whole feed's
    expect((await feed(alice.headers, '?start=25')).info).toEqual({ count: 0, total: 25, new: 25 });
    // the counts are the caller's own, not those of another feed read with the same prepared statement
    const bob = await feedUser(t.deps);
    await sendNotification(t.deps, [bob.id], { message: 'for bob' });
    expect((await feed(bob.headers)).info).toEqual({ count: 1, total: 1, new: 1 });
    expect((await t.app.inject({ url: '/notifications?limit=201', headers: alice.headers })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/notifications?start=-1', headers: alice.headers })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/notifications' })).statusCode).toBe(401);
  });

  it('marks one seen and acked, or all seen without acking them', async () => {
    const bob = await feedUser(t.deps);
    const a = await sendNotification(t.deps, [bob.id], { message: 'a' });
    await sendNotification(t.deps, [bob.id], { message: 'b' });
    await sendNotification(t.deps, [bob.id], { message: 'c' });
    const one = await t.app.inject({ method: 'PATCH', url: `/notifications/${a!.id}/seen`, headers: bob.headers });
    expect(one.statusCode).toBe(204);
    let list = await feed(bob.headers);
    expect(list.info.new).toBe(2);
    const seenA = list.data.find((n) => n.message === 'a')!;
    expect(seenA).toMatchObject({ seen: true, acked_at: expect.any(Number), seen_at: expect.any(Number) });
    expect((await t.app.inject({ method: 'PATCH', url: '/notifications/seen', headers: bob.headers })).statusCode).toBe(
      204,
    );
    list = await feed(bob.headers);
    expect(list.info.new).toBe(0);
    expect(list.data.every((n) => n.seen)).toBe(true);
    expect(list.data.filter((n) => n.acked_at !== null).map((n) => n.message)).toEqual(['a']);
    // seeing again changes nothing
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/notifications/${a!.id}/seen`, headers: bob.headers })).statusCode,
    ).toBe(204);
    expect((await t.app.inject({ url: `/notifications/${a!.id}`, headers: bob.headers })).json().data.seen_at).toBe(
      seenA.seen_at,
    );
  });

  it('answers 404 for another user’s notification on every route, and changes nothing of it', async () => {
    const owner = await feedUser(t.deps);
    const other = await feedUser(t.deps);
    const sent = await sendNotification(t.deps, [owner.id]);
    const id = sent!.id;
    for (const [method, url] of [
      ['GET', `/notifications/${id}`],
      ['PATCH', `/notifications/${id}/seen`],
      ['DELETE', `/notifications/${id}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: other.headers });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ http: 404, code: 'ResourceNotFound' });
    }
    const bulk = await t.app.inject({
      method: 'DELETE',
      url: '/notifications',
      headers: other.headers,
      payload: { notifications: [id] },
    });
    expect(bulk.statusCode).toBe(404);
    const mine = (await t.app.inject({ url: `/notifications/${id}`, headers: owner.headers })).json().data;
    expect(mine).toMatchObject({ id, type: 'notification', seen: false, deleted_at: null });
    // marking "all" seen as the other user touches only their own feed
    await t.app.inject({ method: 'PATCH', url: '/notifications/seen', headers: other.headers });
    expect((await feed(owner.headers)).info.new).toBe(1);
  });

  it('deletes from the caller’s feed only: one, a list (all or nothing), or everything', async () => {
    const carol = await feedUser(t.deps);
    const dave = await feedUser(t.deps);
    const shared = await sendNotification(t.deps, [carol.id, dave.id], { message: 'shared' });
    const x = await sendNotification(t.deps, [carol.id], { message: 'x' });
    const y = await sendNotification(t.deps, [carol.id], { message: 'y' });
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/notifications/${shared!.id}`, headers: carol.headers }))
        .statusCode,
    ).toBe(204);
    expect((await t.app.inject({ url: `/notifications/${shared!.id}`, headers: carol.headers })).statusCode).toBe(404);
    expect((await feed(dave.headers)).info.total).toBe(1);
    const partly = await t.app.inject({
      method: 'DELETE',
      url: '/notifications',
      headers: carol.headers,
      payload: { notifications: [x!.id, shared!.id] },
    });
    expect(partly.statusCode).toBe(404);
    expect((await feed(carol.headers)).info).toEqual({ count: 2, total: 2, new: 2 });
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/notifications',
          headers: carol.headers,
          payload: { notifications: [x!.id] },
        })
      ).statusCode,
    ).toBe(204);
    expect((await feed(carol.headers)).data.map((n) => n.message)).toEqual(['y']);
    expect(y).not.toBeNull();
    expect((await t.app.inject({ method: 'DELETE', url: '/notifications', headers: carol.headers })).statusCode).toBe(
      204,
    );
    expect((await feed(carol.headers)).info).toEqual({ count: 0, total: 0, new: 0 });
    expect((await feed(dave.headers)).info.total).toBe(1);
  });

  // Issue 34 row 16: `null` is a body, and not an object: refused, nothing deleted. Unknown query keys are ignored
  // (docs/errors.md): clients add their own, such as cache-busting keys.
  it('refuses a null or non-object body on DELETE /notifications, deleting nothing; ignores unknown query keys', async () => {
    const frank = await feedUser(t.deps);
    await sendNotification(t.deps, [frank.id], { message: 'kept' });
    for (const payload of ['null', '[]', '7', '"all"']) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: '/notifications',
        headers: { ...frank.headers, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, `${payload}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ http: 400, code: 'Validation', message: 'body must be object' });
    }
    expect((await feed(frank.headers)).info.total).toBe(1);

    const unknown = await t.app.inject({ url: '/notifications?x-unknown=42&_=1732800000', headers: frank.headers });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(await feed(frank.headers));
  });

  it('notify() writes nothing when its transaction rolls back, skips excluded and deleted users, and derives notification_type', async () => {
    const erin = await feedUser(t.deps);
    const actor = await feedUser(t.deps);
    const gone = await feedUser(t.deps);
    await t.deps.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    await expect(
      t.deps.db.transaction().execute(async (trx) => {
        await notify(trx, t.deps, { recipients: [erin.id], action: 'Tested', message: 'rolled back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await feed(erin.headers)).info.total).toBe(0);
    const sent = await sendNotification(t.deps, [erin.id, erin.id, actor.id, gone.id], {
      action: 'BecameAvailable',
      subject_class: 'Listing',
      object_class: 'User',
      object: actor.id,
      exclude: [actor.id],
      message: 'm',
    });
    expect(sent!.recipients.map((r) => r.user)).toEqual([erin.id]);
    const [record] = (await feed(erin.headers)).data as unknown as Record<string, unknown>[];
    expect(record).toMatchObject({
      notification_type: 'ListingBecameAvailableUser',
      exclude: [actor.id],
      transports: ['push'],
    });
    expect(record!.objects).toEqual([expect.objectContaining({ id: actor.id, type: 'user' })]);
    expect(await sendNotification(t.deps, [actor.id], { exclude: [actor.id] })).toBeNull();
  });

  it('answers objects and subjects as arrays, empty where nothing applies (spec §2.10), in the feed and by id', async () => {
    const gina = await feedUser(t.deps);
    const other = await feedUser(t.deps);
    await sendNotification(t.deps, [gina.id], { message: 'about nothing' });
    await sendNotification(t.deps, [gina.id], {
      message: 'about a deal, by a contact',
      object: other.id,
      object_class: 'Contact',
      subject: other.id,
      subject_class: 'Deal',
    });
    const records = (await feed(gina.headers)).data as unknown as Record<string, unknown>[];
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(record, String(record.message)).toMatchObject({ objects: [], subjects: [] });
      const alone = await t.app.inject({ url: `/notifications/${String(record.id)}`, headers: gina.headers });
      expect(alone.json().data, String(record.message)).toMatchObject({ objects: [], subjects: [] });
    }
  });

  describe('with a listing subject', () => {
    let listing: string;
    beforeAll(async () => {
      await t.app.inject({
        method: 'POST',
        url: '/mls/NTREIS/listings',
        headers: await clientHeaders(t.deps),
        payload: [sampleListing('N-1')],
      });
      listing = (
        await t.deps.db.selectFrom('listings').select('id').where('mls_number', '=', 'N-1').executeTakeFirstOrThrow()
      ).id;
    });

    it('embeds the listing record in subjects and keeps every field of spec 2.10', async () => {
      const frank = await feedUser(t.deps);
      const sent = await sendNotification(t.deps, [frank.id], {
        action: 'BecameAvailable',
        subject: listing,
        subject_class: 'Listing',
        object: frank.id,
        object_class: 'User',
        message: '4521 Maple Ave just hit the market',
        title: 'New listing',
        data: { k: 1 },
        sound: 'default',
        app: 'rechat',
      });
      const res = await t.app.inject({ url: `/notifications/${sent!.id}`, headers: frank.headers });
      expect(res.statusCode).toBe(200);
      const record = res.json().data;
      expect(record.subjects).toEqual([expect.objectContaining({ id: listing, type: 'listing' })]);
      expect(record).toMatchObject({
        title: 'New listing',
        data: { k: 1 },
        sound: 'default',
        app: 'rechat',
        seen: false,
        room: null,
        recommendations: null,
      });
      for (const field of [
        'auxiliary_object_class',
        'auxiliary_object',
        'auxiliary_subject',
        'auxiliary_subject_class',
        'extra_subject_class',
        'extra_object_class',
        'recommendation',
        'phone_number',
        'created_at',
        'updated_at',
      ]) {
        expect(record, field).toHaveProperty(field);
      }
    });
  });
});
