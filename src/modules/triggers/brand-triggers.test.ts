// Brand triggers on a clock the test sets: every contact of the brand with the date gets the email once, at the
// local time of the sender's zone; exclusions, contacts' own triggers, disabling; the sweep run twice or side by
// side sends nothing twice; what is refused.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSmtpSink } from '../../../test/fakes/smtp.js';
import { useTestApp } from '../../../test/helpers/app.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { createContact, postCampaign } from '../../../test/helpers/emails.js';
import { chunkRowsOf } from '../../jobs/task.js';
import { occurrencesFiring, sweepBrandTriggers } from './brand-triggers.sweep.js';
import { sweepBrandTriggersTask } from './triggers.tasks.js';

const START = new Date('2026-03-01T12:00:00Z');
const chunk = () => chunkRowsOf(sweepBrandTriggersTask, t.deps);
const smtp = useSmtpSink();
const t = useTestApp({ env: smtp.env, now: START });
let brand: string;
let user: string;
let headers: Record<string, string>;
const contacts: Record<string, string> = {};

async function travelTo(at: Date) {
  t.clock.set(at);
  headers = { ...headers, ...bearer(await tokenFor(t.deps, user)) };
}

/** One sweep as the cron job runs it (here twice at once: two workers), then the campaigns and mail it queued. */
async function sweepAndSend() {
  await Promise.all([
    sweepBrandTriggers(t.deps, new AbortController().signal, chunk()),
    sweepBrandTriggers(t.deps, new AbortController().signal, chunk()),
  ]);
  await runQueuedJobs(t.deps, ['emails.execute'], { dueBy: t.clock.now() });
  await runQueuedJobs(t.deps, ['mail.send']);
}

const subjectsTo = (address: string) =>
  smtp.sink.received.filter((r) => r.envelope.to.includes(address)).map((r) => r.parsed.subject);
const put = (body: Record<string, unknown>, eventType = 'birthday') =>
  t.app.inject({ method: 'PUT', url: `/brands/${brand}/triggers/${eventType}`, headers, payload: body });
const BIRTHDAY = {
  wait_for: 0,
  time: 9 * 3600,
  subject: 'Happy birthday, {{ contact.first_name }}!',
  html: '<p>All the best, {{ contact.first_name }}.</p>',
};

beforeAll(async () => {
  brand = (await createBrand(t.deps)).id;
  user = (await createUser(t.deps, { timezone: 'America/New_York' })).id;
  await addMembership(t.deps, user, brand, ['CRM', 'Marketing']);
  headers = { ...bearer(await tokenFor(t.deps, user)), 'x-rechat-brand': brand };
  contacts.ann = await createContact(t.app, headers, {
    first_name: 'Ann',
    email: 'ann@example.com',
    birthday: '1980-03-05',
  });
  contacts.bob = await createContact(t.app, headers, {
    first_name: 'Bob',
    email: 'bob@example.com',
    birthday: '1985-03-05',
  });
  contacts.own = await createContact(t.app, headers, {
    first_name: 'Own',
    email: 'own@example.com',
    birthday: '1990-03-05',
  });
  contacts.mute = await createContact(t.app, headers, {
    first_name: 'Mute',
    email: 'mute@example.com',
    birthday: '1991-03-05',
    unsubscribed: true,
  });
  contacts.next = await createContact(t.app, headers, {
    first_name: 'Ned',
    email: 'ned@example.com',
    birthday: '1970-03-06',
  });
  contacts.off = await createContact(t.app, headers, {
    first_name: 'Olly',
    email: 'olly@example.com',
    birthday: '1970-03-07',
  });
  const template = (
    await postCampaign(t.app, headers, {
      subject: 'Own trigger',
      html: '<p>x</p>',
      due_at: START.getTime() / 1000 + 365 * 86400,
      to: [{ recipient_type: 'Email', email: 'x@example.com' }],
    })
  ).json().data.id;
  const own = await t.app.inject({
    method: 'POST',
    url: '/triggers',
    headers,
    payload: {
      event_type: 'birthday',
      action: 'schedule_email',
      wait_for: 0,
      contact: contacts.own,
      campaign: template,
    },
  });
  expect(own.statusCode, own.body).toBe(200);
});

describe('brand triggers', () => {
  it('emails each contact with the date once, at the local time, leaving out exclusions, own triggers and unsubscribed contacts', async () => {
    const set = await put(BIRTHDAY);
    expect(set.statusCode, set.body).toBe(200);
    const trigger = set.json().data;
    expect(trigger).toMatchObject({
      type: 'brand_trigger',
      brand,
      event_type: 'birthday',
      user,
      enabled: true,
      exclusions: [],
    });
    const excluded = await t.app.inject({
      method: 'POST',
      url: `/brands/${brand}/triggers/birthday/exclusion`,
      headers,
      payload: { contact: contacts.bob },
    });
    expect(excluded.json().data.exclusions).toEqual([contacts.bob]);

    // 09:00 EST on March 5 is 14:00 UTC.
    await travelTo(new Date('2026-03-05T13:59:00Z'));
    await sweepAndSend();
    expect(subjectsTo('ann@example.com')).toEqual([]);
    await travelTo(new Date('2026-03-05T14:00:30Z'));
    await sweepAndSend();
    await sweepAndSend();
    expect(subjectsTo('ann@example.com')).toEqual(['Happy birthday, Ann!']);
    for (const address of ['bob@example.com', 'own@example.com', 'mute@example.com', 'ned@example.com'])
      expect(subjectsTo(address), address).toEqual([]);

    await travelTo(new Date('2026-03-06T15:00:00Z'));
    await sweepAndSend();
    expect(subjectsTo('ned@example.com')).toEqual(['Happy birthday, Ned!']);
    expect(subjectsTo('ann@example.com')).toHaveLength(1);
    const list = (await t.app.inject({ method: 'GET', url: `/brands/${brand}/triggers`, headers })).json();
    expect(list.data.map((b: { id: string }) => b.id)).toEqual([trigger.id]);
  });

  it('sends nothing while disabled, nor late after enabling', async () => {
    const id = (await t.app.inject({ method: 'GET', url: `/brands/${brand}/triggers`, headers })).json().data[0].id;
    const disabled = await t.app.inject({ method: 'PATCH', url: `/brands/${brand}/triggers/${id}/disable`, headers });
    expect(disabled.json().data.enabled).toBe(false);
    await travelTo(new Date('2026-03-07T15:00:00Z'));
    await sweepAndSend();
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/brands/${brand}/triggers/${id}/enable`, headers })).json().data
        .enabled,
    ).toBe(true);
    await travelTo(new Date('2026-03-07T16:00:00Z'));
    await sweepAndSend();
    expect(subjectsTo('olly@example.com')).toEqual([]);
  });

  it('refuses bad input and other brands with a clear 4xx, writing nothing', async () => {
    const before = await t.deps.db.selectFrom('brand_triggers').selectAll().orderBy('id').execute();
    expect((await put({ ...BIRTHDAY, subject: 'Hi\r\nBcc: all@example.com' })).statusCode).toBe(400);
    expect((await put({ ...BIRTHDAY, html: '{% include "secret" %}' })).statusCode).toBe(400);
    expect((await put({ ...BIRTHDAY, wait_for: 0.5 })).statusCode).toBe(400);
    expect((await put(BIRTHDAY, 'anniversary')).statusCode).toBe(400);
    const other = (await createBrand(t.deps)).id;
    const stranger = (await createUser(t.deps)).id;
    await addMembership(t.deps, stranger, other, ['CRM']);
    const strangerHeaders = { ...bearer(await tokenFor(t.deps, stranger)), 'x-rechat-brand': other };
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/brands/${brand}/triggers/birthday`,
          headers: strangerHeaders,
          payload: BIRTHDAY,
        })
      ).statusCode,
    ).toBe(403);
    const foreign = await createContact(t.app, strangerHeaders, { first_name: 'Far' });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/brands/${brand}/triggers/birthday/exclusion`,
          headers,
          payload: { contact: foreign },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/brands/${brand}/triggers/home_anniversary/exclusion`,
          headers,
          payload: { contact: contacts.ann },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/brands/${brand}/triggers/${stranger}/enable`, headers }))
        .statusCode,
    ).toBe(404);
    expect(await t.deps.db.selectFrom('brand_triggers').selectAll().orderBy('id').execute()).toEqual(before);
  });
});

describe('a sweep pass', () => {
  // Sweeps up to the instant it started and ends (ADR 0039). A pass that read the clock afresh per trigger found the
  // trigger it had just swept due again a moment later and looped for as long as any trigger was enabled.
  const enabledTriggers = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('brand_triggers')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('enabled', '=', true)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('on the test clock: sweeps each enabled trigger once and ends; the next pass finds nothing due', async () => {
    await travelTo(new Date('2026-03-10T12:00:00Z'));
    expect(await enabledTriggers()).toBeGreaterThan(0);
    expect(await sweepBrandTriggers(t.deps, new AbortController().signal, chunk())).toBe(await enabledTriggers());
    expect(await sweepBrandTriggers(t.deps, new AbortController().signal, chunk())).toBe(0);
  });

  it('on a clock that moves: ends by itself and sends each occurrence once', async () => {
    const zoe = await createContact(t.app, headers, {
      first_name: 'Zoe',
      email: 'zoe@example.com',
      birthday: '1982-03-12',
    });
    expect(zoe).toBeTruthy();
    await travelTo(new Date('2026-03-12T12:00:00Z'));
    expect((await put(BIRTHDAY)).json().data.enabled).toBe(true);
    // 09:00 EDT on March 12 is 13:00 UTC; the pass starts a minute later, on a clock that runs as real time does.
    await travelTo(new Date('2026-03-12T13:01:00Z'));
    const startedAt = performance.now();
    const moving = { now: () => new Date(t.clock.now().getTime() + (performance.now() - startedAt)) };
    const safety = AbortSignal.timeout(10_000);
    const swept = await sweepBrandTriggers({ ...t.deps, clock: moving }, safety, chunk());
    expect(safety.aborted, 'the pass ran until the safety stop instead of ending').toBe(false);
    expect(swept).toBe(await enabledTriggers());
    await sweepAndSend();
    await sweepAndSend();
    expect(subjectsTo('zoe@example.com')).toEqual(['Happy birthday, Zoe!']);
  });
});

describe('a sweep in chunks', () => {
  it('schedules a day of many birthdays one chunk per transaction, each contact once, and then ends', async () => {
    await travelTo(new Date('2026-03-14T12:00:00Z'));
    const many = { ...headers };
    const res = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: many,
      payload: {
        contacts: Array.from({ length: 25 }, (_, i) => ({
          first_name: `Pi${i}`,
          email: `pi${i}@example.com`,
          birthday: '1990-03-14',
        })),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    // 09:00 EDT on March 14 is 13:00 UTC.
    await travelTo(new Date('2026-03-14T13:00:30Z'));
    expect(await sweepBrandTriggers(t.deps, new AbortController().signal, 10)).toBe(
      Number(
        (
          await t.deps.db
            .selectFrom('brand_triggers')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('enabled', '=', true)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
    const sends = await t.deps.db
      .selectFrom('brand_trigger_sends')
      .select(['contact', 'campaign'])
      .where(sql<string>`event_date::text`, '=', '2026-03-14')
      .execute();
    expect(sends).toHaveLength(25);
    expect(new Set(sends.map((s) => s.contact)).size).toBe(25);
    expect(new Set(sends.map((s) => s.campaign)).size).toBe(3);
    await sweepAndSend();
    for (let i = 0; i < 25; i++)
      expect(subjectsTo(`pi${i}@example.com`), `pi${i}`).toEqual([`Happy birthday, Pi${i}!`]);
  });
});

describe('occurrences firing in a window', () => {
  it('finds the occurrence whose local fire time is in the window, and lets Feb 28 of a common year stand for Feb 29', () => {
    const rule = { time: 9 * 3600, wait_for: -86400 };
    const march = occurrencesFiring(
      rule,
      'America/New_York',
      new Date('2026-03-08T12:00:00Z'),
      new Date('2026-03-08T13:30:00Z'),
    );
    // The day before March 9 at 09:00: March 8 is the spring-forward day, 09:00 EDT = 13:00 UTC.
    expect(march).toEqual([
      { eventDate: '2026-03-09', monthDays: ['03-09'], fireAt: new Date('2026-03-08T13:00:00Z') },
    ]);
    const leap = occurrencesFiring(
      { time: 0, wait_for: 0 },
      'Europe/Berlin',
      new Date('2027-02-27T22:00:00Z'),
      new Date('2027-02-27T23:30:00Z'),
    );
    expect(leap).toEqual([
      { eventDate: '2027-02-28', monthDays: ['02-28', '02-29'], fireAt: new Date('2027-02-27T23:00:00Z') },
    ]);
    expect(
      occurrencesFiring(rule, 'America/New_York', new Date('2026-03-08T13:00:00Z'), new Date('2026-03-08T14:00:00Z')),
    ).toEqual([]);
  });
});
