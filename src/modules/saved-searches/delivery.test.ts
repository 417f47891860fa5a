// Delivery of matches (issue 12 item 3, decisions §6) with a ManualClock: the owner's in-app notification, Instant
// emails (once per search, contact and listing, also under a retried job), Daily digests at the owner's local time
// (nothing new → no email, one per local date), and one-click unsubscribe (a tampered link changes nothing).
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { queuedJobs, runQueuedJobs } from '../../../test/helpers/jobs.js';
import { crmUser } from '../../../test/helpers/contacts.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { deliverMatches, runDueDigests } from './delivery.service.js';
import { deliverMatchesTask } from './delivery.tasks.js';
import { createContact, ingestAndRun, saveSearch } from '../../../test/helpers/saved-searches.js';

const TASKS = ['saved-searches.match', 'saved-searches.deliver'];

describe('delivering saved-search matches', () => {
  // 07:00 in New York (EST)
  const t = useTestApp({
    now: new Date('2026-11-21T12:00:00Z'),
    env: { LISTING_URL: 'https://homes.example.com/l/{mls}/{mls_number}' },
  });
  let owner: Awaited<ReturnType<typeof crmUser>>;
  let feed: Record<string, string>;
  let mls = 0;

  const newContact = (firstName: string) => createContact(t.app, owner, firstName);
  const save = (payload: object) => saveSearch(t.app, owner, payload);
  const ingest = (records: unknown[]) =>
    ingestAndRun(t.app, t.deps, { mls: `DLV${mls}`, headers: feed }, records, TASKS);
  const mailsTo = (contact: string) =>
    t.deps.db
      .selectFrom('mail_messages')
      .select(['subject', 'html', 'text_body', 'headers', 'to_addresses', 'purpose'])
      .where('contact', '=', contact)
      .orderBy('created_at')
      .execute();
  const notificationsAbout = (listing: string) =>
    t.deps.db
      .selectFrom('notifications as n')
      .innerJoin('notification_recipients as r', 'r.notification', 'n.id')
      .select(['n.notification_type', 'n.message', 'r.user'])
      .where('n.subject', '=', listing)
      .orderBy('n.created_at')
      .execute();
  const listingId = async (mlsNumber: string) =>
    (await t.deps.db.selectFrom('listings').select('id').where('mls_number', '=', mlsNumber).executeTakeFirstOrThrow())
      .id;

  beforeAll(async () => {
    owner = await crmUser(t.deps);
    await t.deps.db.updateTable('users').set({ timezone: 'America/New_York' }).where('id', '=', owner.user).execute();
    feed = await clientHeaders(t.deps);
  });

  it('Instant: the owner is notified and the contact emailed a real alert, each listing once, also when the job is retried', async () => {
    mls++;
    const contact = await newContact('Iris');
    const search = await save({ title: 'Dallas homes', contacts: [contact], frequency: 'Instant' });
    await ingest([sampleListing('D-1')]);
    const listing = await listingId('D-1');

    expect(await notificationsAbout(listing)).toEqual([
      {
        notification_type: 'ListingBecameAvailableUser',
        message: '4521 Maple Ave, Dallas, TX just hit the market',
        user: owner.user,
      },
    ]);
    const [mail, ...more] = await mailsTo(contact);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      purpose: 'saved_search_alert',
      to_addresses: ['iris@example.com'],
      subject: '4521 Maple Ave, Dallas, TX — new for “Dallas homes”',
    });
    expect(mail!.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect((mail!.headers as Record<string, string>)['List-Unsubscribe']).toMatch(
      /^<http:\/\/gable\.test\/saved-searches\/unsubscribe\?search=.+&contact=.+&token=[0-9a-f]{64}>$/,
    );
    for (const part of [mail!.html!, mail!.text_body!]) {
      expect(part).toContain('$450,000');
      expect(part).toContain('3 Beds');
      expect(part).toContain(`https://homes.example.com/l/DLV${mls}/D-1`);
      expect(part).toContain('See all homes that match');
      // "See all" opens the contact's results page (docs/public-pages.md), by a signed token of (search, contact).
      expect(part).toMatch(/http:\/\/gable\.test\/a\/[A-Za-z0-9_-]{71}/);
    }
    expect(mail!.html).toContain('https://img.example.com/1.jpg');

    // A retried delivery job finds its matches delivered: nothing twice.
    const matchIds = (
      await t.deps.db.selectFrom('saved_search_matches').select('id').where('saved_search', '=', search).execute()
    ).map((m) => m.id);
    expect(await deliverMatches(t.deps, matchIds)).toEqual({ notified: 0, emails: 0 });
    // Even with its mark lost, the alert ledger holds (search, contact, listing): no second email.
    await t.deps.db
      .updateTable('saved_search_matches')
      .set({ delivered_at: null })
      .where('saved_search', '=', search)
      .execute();
    expect((await deliverMatches(t.deps, matchIds)).emails).toBe(0);
    expect(await mailsTo(contact)).toHaveLength(1);
    await t.deps.db
      .deleteFrom('notification_recipients')
      .where('notification', 'in', (eb) => eb.selectFrom('notifications').select('id').where('subject', '=', listing))
      .execute();

    // A price drop notifies the owner with its own type; the contact was already told about this listing.
    t.clock.advance(60);
    await ingest([sampleListing('D-1', { price: 425_000 })]);
    expect((await notificationsAbout(listing)).map((n) => n.notification_type)).toEqual(['ListingPriceDroppedUser']);
    expect((await notificationsAbout(listing)).at(-1)!.message).toBe(
      '4521 Maple Ave, Dallas, TX dropped its price to $425,000',
    );
    expect(await mailsTo(contact)).toHaveLength(1);
  });

  it('Daily: one digest at send_time in the owner’s zone with what matched since the last; nothing new → no email', async () => {
    mls++;
    const contact = await newContact('Dora');
    await save({ contacts: [contact], frequency: 'Daily', send_time: 8 * 60 });
    await ingest([sampleListing('G-1'), sampleListing('G-2', { price: 300_000 })]);
    await runDueDigests(t.deps);
    expect(await mailsTo(contact)).toEqual([]);

    t.clock.advance(30 * 60); // 07:30 New York: not yet
    await runDueDigests(t.deps);
    expect(await mailsTo(contact)).toEqual([]);

    t.clock.advance(30 * 60); // 08:00 New York
    await runDueDigests(t.deps);
    await runDueDigests(t.deps);
    const mails = await mailsTo(contact);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^2 new listings for/);
    expect(mails[0]!.text_body).toContain('See all homes that match');
    const digests = await t.deps.db
      .selectFrom('saved_search_digests')
      .select(['local_date', 'listings'])
      .where('contact', '=', contact)
      .execute();
    expect(digests.map((d) => ({ ...d, local_date: String(d.local_date) }))).toHaveLength(1);

    t.clock.advance(24 * 3600); // next day 08:00: nothing matched since
    await runDueDigests(t.deps);
    expect(await mailsTo(contact)).toHaveLength(1);
    expect(
      await t.deps.db.selectFrom('saved_search_digests').select('id').where('contact', '=', contact).execute(),
    ).toHaveLength(2);

    await ingest([sampleListing('G-3')]);
    t.clock.advance(24 * 3600);
    await runDueDigests(t.deps);
    const after = await mailsTo(contact);
    expect(after).toHaveLength(2);
    expect(after[1]!.text_body).toContain('See all homes that match');
  });

  it('unsubscribe: a tampered link is a 400 and changes nothing; the one-click POST sets the link to Never', async () => {
    mls++;
    const contact = await newContact('Uma');
    const search = await save({ contacts: [contact], frequency: 'Instant' });
    await ingest([sampleListing('U-1')]);
    const [mail] = await mailsTo(contact);
    const url = new URL((mail!.headers as Record<string, string>)['List-Unsubscribe']!.slice(1, -1));
    const path = `${url.pathname}${url.search}`;
    const frequency = async () =>
      (
        await t.deps.db
          .selectFrom('saved_search_contacts')
          .select('frequency')
          .where('saved_search', '=', search)
          .where('contact', '=', contact)
          .executeTakeFirstOrThrow()
      ).frequency;

    const tampered = new URL(url);
    tampered.searchParams.set(
      'token',
      url.searchParams.get('token')!.replace(/^./, (c) => (c === '0' ? '1' : '0')),
    );
    const bad = await t.app.inject({
      method: 'POST',
      url: `${tampered.pathname}${tampered.search}`,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bad.statusCode).toBe(400);
    const otherSearch = new URL(url);
    otherSearch.searchParams.set('search', '00000000-0000-4000-8000-000000000000');
    expect(
      (await t.app.inject({ method: 'POST', url: `${otherSearch.pathname}${otherSearch.search}` })).statusCode,
    ).toBe(400);
    expect(await frequency()).toBe('Instant');

    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('method="post"');
    expect(await frequency()).toBe('Instant');

    const done = await t.app.inject({
      method: 'POST',
      url: path,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toEqual({ frequency: 'Never', title: expect.any(String) });
    expect(await frequency()).toBe('Never');
    const again = await t.app.inject({ method: 'POST', url: path });
    expect(again.statusCode, again.body).toBe(200);

    await ingest([sampleListing('U-2')]);
    expect(await mailsTo(contact)).toHaveLength(1);
  });

  it('the match job notifies the owner with the match it stores; only matches of searches with an Instant contact get a delivery job', async () => {
    mls++;
    const contact = await newContact('Nell');
    const quiet = await save({ title: 'No contact' });
    const daily = await save({ title: 'Daily contact', contacts: [contact], frequency: 'Daily', send_time: 480 });
    const instant = await save({ title: 'Instant contact', contacts: [contact], frequency: 'Instant' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/mls/DLV${mls}/listings`,
      headers: feed,
      payload: [sampleListing('N-1')],
    });
    expect(res.statusCode, res.body).toBe(200);
    await runQueuedJobs(t.deps, ['saved-searches.match']);
    const listing = await listingId('N-1');

    // Committed with the matches: no delivery job has run.
    // (The other tests' searches cover the same area.)
    const ours = sql<string>`data->>'saved_search'`;
    const notifiedOf = () =>
      t.deps.db
        .selectFrom('notifications')
        .select(['title', 'message'])
        .where('subject', '=', listing)
        .where(ours, 'in', [quiet, daily, instant])
        .orderBy('title')
        .execute();
    expect(await notifiedOf()).toEqual(
      ['Daily contact', 'Instant contact', 'No contact'].map((title) => ({
        title,
        message: '4521 Maple Ave, Dallas, TX just hit the market',
      })),
    );
    const jobs = await queuedJobs(t.deps, ['saved-searches.deliver']);
    const instantMatch = await t.deps.db
      .selectFrom('saved_search_matches')
      .select(['id', 'delivered_at'])
      .where('saved_search', '=', instant)
      .executeTakeFirstOrThrow();
    // (the first test's Instant search matches too)
    expect(jobs.map((job) => job.data)).toEqual([
      { matches: expect.arrayContaining([instantMatch.id]), notified: true },
    ]);
    expect(instantMatch.delivered_at).toBeNull();
    const others = await t.deps.db
      .selectFrom('saved_search_matches')
      .select(['id', 'delivered_at'])
      .where('saved_search', 'in', [quiet, daily])
      .execute();
    expect(others.map((m) => m.delivered_at)).toEqual([t.clock.now(), t.clock.now()]);
    for (const other of others) expect((jobs[0]!.data as { matches: string[] }).matches).not.toContain(other.id);

    // The delivery job emails and notifies nobody a second time.
    await runQueuedJobs(t.deps, ['saved-searches.deliver']);
    expect(await mailsTo(contact)).toHaveLength(1);
    expect(await notifiedOf()).toHaveLength(3);

    // A delivery job enqueued before the match job notified (its payload has no `notified`) notifies the owner.
    await t.deps.db
      .updateTable('saved_search_matches')
      .set({ delivered_at: null })
      .where('saved_search', '=', quiet)
      .execute();
    const quietMatch = await t.deps.db
      .selectFrom('saved_search_matches')
      .select('id')
      .where('saved_search', '=', quiet)
      .executeTakeFirstOrThrow();
    await t.deps.queue.enqueue(t.deps.db, deliverMatchesTask, { matches: [quietMatch.id] });
    await runQueuedJobs(t.deps, ['saved-searches.deliver']);
    expect((await notifiedOf()).map((n) => n.title)).toEqual([
      'Daily contact',
      'Instant contact',
      'No contact',
      'No contact',
    ]);
  });

  it('/metrics counts events matched, matches, notifications, emails per frequency and the matching lag', async () => {
    const metrics = (await t.app.inject({ url: '/metrics' })).body;
    const value = (line: string) =>
      Number(
        metrics
          .split('\n')
          .find((l) => l.startsWith(`${line} `))
          ?.split(' ')[1],
      );
    // what the tests above stored, counted in the database
    const count = async (table: 'listing_events' | 'notifications', where?: [string, string]) => {
      let query = t.deps.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n'));
      if (where) query = query.where(sql.ref(where[0]), '=', where[1]);
      return Number((await query.executeTakeFirstOrThrow()).n);
    };
    const matches = async (type: string) =>
      Number(
        (
          await t.deps.db
            .selectFrom('saved_search_matches')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('event_type', '=', type)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const events = await count('listing_events');
    expect(events).toBe(8); // D-1 twice (available, price drop), N-1, G-1..G-3, U-1, U-2
    expect(value('gable_alert_events_matched_total')).toBe(events);
    expect(value('gable_alert_matches_total{event_type="BecameAvailable"}')).toBe(await matches('BecameAvailable'));
    expect(value('gable_alert_matches_total{event_type="PriceDropped"}')).toBe(await matches('PriceDropped'));
    // the retry test deleted the feed rows of two notifications, not the notifications
    expect(value('gable_alert_notifications_total')).toBe(await count('notifications'));
    const alertMails = Number(
      (
        await t.deps.db
          .selectFrom('mail_messages')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('purpose', '=', 'saved_search_alert')
          .executeTakeFirstOrThrow()
      ).n,
    );
    const digestMails = Number(
      (
        await t.deps.db
          .selectFrom('saved_search_digests')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('mail_message', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(digestMails).toBe(2);
    expect(value('gable_alert_emails_total{frequency="Daily"}')).toBe(digestMails);
    expect(value('gable_alert_emails_total{frequency="Instant"}')).toBe(alertMails - digestMails);
    expect(value('gable_alert_emails_total{frequency="Weekly"}')).toBe(0);
    expect(value('gable_alert_matching_lag_seconds_count')).toBe(events);
  });
});
