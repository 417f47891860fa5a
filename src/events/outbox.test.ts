// The outbox: events exist exactly when the change committed, and are read in order from a position.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { createBrand } from '../../test/helpers/factories.js';
import { EMPTY_CONTACT } from '../modules/contacts/contacts.input.js';
import { insertContactsIn } from '../modules/contacts/contacts.service.js';
import { readEvents, recordEvent, type OutboxPosition, type StoredEvent } from './outbox.js';

const t = useTestApp();
let brand: string;
beforeAll(async () => {
  brand = (await createBrand(t.deps)).id;
});

const SUBJECT = '6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e';

/**
 * Events of `brand` after `after`, waiting while a transaction elsewhere on the server (another test database
 * of the same PostgreSQL) holds the read boundary back.
 */
async function eventually(
  count: number,
  after: OutboxPosition | null = null,
  forBrand = brand,
): Promise<StoredEvent[]> {
  let events: StoredEvent[] = [];
  for (let attempt = 0; attempt < 100 && events.length < count; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    events = await readEvents(t.deps.db, { brand: forBrand, after });
  }
  return events;
}

describe('outbox', () => {
  it('keeps the events of a committed transaction, in order, and reads on from a position', async () => {
    await t.deps.db.transaction().execute(async (trx) => {
      await recordEvent(trx, { brand, topic: 'Contacts', event: 'create', subject: SUBJECT, payload: { n: 1 } });
      await recordEvent(trx, {
        brand,
        topic: 'Activities',
        event: 'ContactViewedListing',
        subject: SUBJECT,
        payload: { n: 2 },
      });
    });
    await t.deps.db
      .transaction()
      .execute((trx) =>
        recordEvent(trx, { brand, topic: 'Contacts', event: 'update', subject: SUBJECT, payload: { n: 3 } }),
      );
    const all = await eventually(3);
    expect(all.map((e) => [e.topic, e.event, e.payload])).toEqual([
      ['Contacts', 'create', { n: 1 }],
      ['Activities', 'ContactViewedListing', { n: 2 }],
      ['Contacts', 'update', { n: 3 }],
    ]);
    expect(all.every((e) => e.brand === brand && e.subject === SUBJECT)).toBe(true);
    const rest = await readEvents(t.deps.db, { brand, after: all[0]!.position });
    expect(rest.map((e) => e.payload)).toEqual([{ n: 2 }, { n: 3 }]);
    expect(await readEvents(t.deps.db, { brand, after: all[2]!.position })).toEqual([]);
    expect((await readEvents(t.deps.db, { brand, topic: 'Activities' })).map((e) => e.payload)).toEqual([{ n: 2 }]);
    expect(await readEvents(t.deps.db, { brand, topic: 'Deals' })).toEqual([]);
  });

  it('keeps nothing of a transaction that rolled back, also what it wrote before the failure', async () => {
    const other = (await createBrand(t.deps)).id;
    const failing = t.deps.db.transaction().execute(async (trx) => {
      await insertContactsIn(trx, t.deps, other, null, [{ ...EMPTY_CONTACT, first_name: 'Written' }], 'direct_request');
      // the database refuses this one (birthday check): the whole change and its events go
      await insertContactsIn(
        trx,
        t.deps,
        other,
        null,
        [{ ...EMPTY_CONTACT, birthday: 'not a date' }],
        'direct_request',
      );
    });
    await expect(failing).rejects.toThrow();
    expect(await t.deps.db.selectFrom('domain_events').select('id').where('brand', '=', other).execute()).toEqual([]);
    expect(await t.deps.db.selectFrom('contacts').select('id').where('brand', '=', other).execute()).toEqual([]);
  });

  it('does not show events of a transaction still running, not even to itself', async () => {
    const own = (await createBrand(t.deps)).id;
    await t.deps.db.transaction().execute(async (trx) => {
      await recordEvent(trx, { brand: own, topic: 'Contacts', event: 'delete', subject: SUBJECT, payload: {} });
      expect(await trx.selectFrom('domain_events').select('id').where('brand', '=', own).execute()).toHaveLength(1);
      expect(await readEvents(trx, { brand: own })).toEqual([]);
    });
    expect(await eventually(1, null, own)).toHaveLength(1);
  });
});
