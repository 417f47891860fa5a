// Digests across DST changes with a ManualClock (issue 12): the spring-forward gap runs at the next valid minute,
// the fall-back repeat runs once, and a Monthly 31 is clamped to the month end.
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../../../test/helpers/app.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { crmUser } from '../../../test/helpers/contacts.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { runDueDigests } from './delivery.service.js';
import { AROUND_DALLAS } from '../../../test/helpers/saved-searches.js';

/** An owner in `zone` with one contact linked by `schedule`; answers helpers to ingest and read digests. */
async function setUp(t: TestApp, zone: string, schedule: object) {
  const owner = await crmUser(t.deps);
  await t.deps.db.updateTable('users').set({ timezone: zone }).where('id', '=', owner.user).execute();
  const feed = await clientHeaders(t.deps);
  const contactRes = await t.app.inject({
    method: 'POST',
    url: '/contacts',
    headers: owner.headers,
    payload: { first_name: 'Dee', emails: ['dee@example.com'] },
  });
  const contact = contactRes.json().data.id as string;
  const saved = await t.app.inject({
    method: 'POST',
    url: `/brands/${owner.brand}/saved-searches`,
    headers: owner.bare,
    payload: { points: AROUND_DALLAS, contacts: [contact], ...schedule },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  let n = 0;
  return {
    ingest: async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/mls/DST/listings',
        headers: feed,
        payload: [sampleListing(`S-${++n}`)],
      });
      expect(res.statusCode, res.body).toBe(200);
      await runQueuedJobs(t.deps, ['saved-searches.match', 'saved-searches.deliver']);
    },
    /** Runs the digest job at `iso` and answers the digests sent so far: local date and due instant. */
    digestsAt: async (iso: string) => {
      t.clock.set(new Date(iso));
      await runDueDigests(t.deps);
      const rows = await t.deps.db
        .selectFrom('saved_search_digests as d')
        .innerJoin('mail_messages as m', 'm.id', 'd.mail_message')
        .select((eb) => [eb.cast<string>('d.local_date', 'text').as('local_date'), 'd.due_at'])
        .where('d.contact', '=', contact)
        .orderBy('d.due_at')
        .execute();
      return rows.map((row) => `${row.local_date} ${row.due_at.toISOString()}`);
    },
  };
}

describe('America/New_York spring forward (2026-03-08 02:00 → 03:00)', () => {
  const t = useTestApp({ now: new Date('2026-03-07T12:00:00Z') });
  it('a Daily 02:30 digest runs at 03:00 EDT, the next valid minute', async () => {
    const s = await setUp(t, 'America/New_York', { frequency: 'Daily', send_time: 150 });
    await s.ingest();
    expect(await s.digestsAt('2026-03-08T06:59:00Z')).toEqual([]);
    expect(await s.digestsAt('2026-03-08T07:00:00Z')).toEqual(['2026-03-08 2026-03-08T07:00:00.000Z']);
  });
});

describe('Australia/Sydney fall back (2026-04-05 03:00 → 02:00)', () => {
  const t = useTestApp({ now: new Date('2026-04-01T00:00:00Z') });
  it('a Weekly Sunday 02:30 digest runs once, at the first 02:30; a match during the repeated hour waits a week', async () => {
    const s = await setUp(t, 'Australia/Sydney', { frequency: 'Weekly', send_weekday: 0, send_time: 150 });
    await s.ingest();
    expect(await s.digestsAt('2026-04-04T15:30:00Z')).toEqual(['2026-04-05 2026-04-04T15:30:00.000Z']);
    await s.ingest();
    expect(await s.digestsAt('2026-04-04T16:30:00Z')).toEqual(['2026-04-05 2026-04-04T15:30:00.000Z']);
    expect(await s.digestsAt('2026-04-11T16:30:00Z')).toEqual([
      '2026-04-05 2026-04-04T15:30:00.000Z',
      '2026-04-12 2026-04-11T16:30:00.000Z',
    ]);
  });
});

describe('Monthly on the 31st', () => {
  const t = useTestApp({ now: new Date('2027-02-01T00:00:00Z') });
  it('is clamped to Feb 28 (Sydney time)', async () => {
    const s = await setUp(t, 'Australia/Sydney', { frequency: 'Monthly', send_monthday: 31, send_time: 9 * 60 });
    await s.ingest();
    expect(await s.digestsAt('2027-02-27T21:59:00Z')).toEqual([]);
    expect(await s.digestsAt('2027-02-27T22:00:00Z')).toEqual(['2027-02-28 2027-02-27T22:00:00.000Z']);
  });
});
