// Triggers through the API on a clock the test sets: the planned fire time in the user's zone, a copy of the
// template campaign sent to the contact over SMTP at that time (once), the recurring chain, re-planning when the
// contact's date or the user's zone changes, failure, deletion, and what is refused.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useSmtpSink } from '../../../test/fakes/smtp.js';
import { useTestApp } from '../../../test/helpers/app.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { queuedJobs, runQueuedJobs } from '../../../test/helpers/jobs.js';
import { createContact, postCampaign } from '../../../test/helpers/emails.js';

const START = new Date('2026-03-01T12:00:00Z');
const smtp = useSmtpSink();
const t = useTestApp({ env: smtp.env, now: START });
let brand: string;
let user: string;
let headers: Record<string, string>;

beforeAll(async () => {
  brand = (await createBrand(t.deps)).id;
  user = (await createUser(t.deps, { first_name: 'Dana', timezone: 'America/New_York' })).id;
  await addMembership(t.deps, user, brand, ['CRM', 'Marketing']);
  headers = { ...bearer(await tokenFor(t.deps, user)), 'x-rechat-brand': brand };
});

/** A template as a client makes one: a campaign due later (a trigger adopts it before it could go). */
// Each test starts on 2026-03-01 (a test that travelled leaves the clock where it went).
beforeEach(async () => {
  await travelTo(START);
});

async function template(subject = 'Happy birthday {{ contact.first_name }}!') {
  const res = await postCampaign(t.app, headers, {
    subject,
    html: '<p>Many happy returns, {{ contact.first_name }}.</p>',
    due_at: START.getTime() / 1000 + 365 * 86400,
    to: [{ recipient_type: 'Email', email: 'template@example.com' }],
    individual: true,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

const postTrigger = (body: Record<string, unknown>, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `/triggers${query}`,
    headers,
    payload: { action: 'schedule_email', event_type: 'birthday', wait_for: 0, ...body },
  });
const getTrigger = (id: string) => t.app.inject({ method: 'GET', url: `/triggers/${id}`, headers });
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const receivedBy = (address: string) => smtp.sink.received.filter((r) => r.envelope.to.includes(address));
/** Runs the trigger and campaign jobs due at `at`, then the mail they queued (pg-boss stamps it with the real now). */
async function runDue(at: Date) {
  await runQueuedJobs(t.deps, ['triggers.execute', 'emails.execute'], { dueBy: at });
  await runQueuedJobs(t.deps, ['mail.send']);
}
/** Moves the test clock; the token issued at the old time has expired by then, so a fresh one is issued. */
async function travelTo(at: Date) {
  t.clock.set(at);
  headers = { ...headers, ...bearer(await tokenFor(t.deps, user)) };
}
const triggerCount = async () =>
  Number(
    (
      await t.deps.db
        .selectFrom('triggers')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('planning', () => {
  it('fires at the next occurrence of the date at local time in the user’s zone, and shows on the contact', async () => {
    const contact = await createContact(t.app, headers, {
      first_name: 'Ann',
      email: 'ann@example.com',
      birthday: '1980-03-10',
    });
    const campaign = await template();
    const res = await postTrigger(
      { contact, campaign, time: 9 * 3600, wait_for: -86400, recurring: true },
      '?associations[]=trigger.campaign',
    );
    expect(res.statusCode, res.body).toBe(200);
    const trigger = res.json().data;
    // 2026-03-09 09:00 in New York is EDT (the clocks moved on 03-08): 13:00 UTC.
    expect(iso(trigger.effective_at)).toBe('2026-03-09T13:00:00.000Z');
    expect(trigger).toMatchObject({
      type: 'trigger',
      brand,
      user,
      contact,
      event_type: 'birthday',
      action: 'schedule_email',
      recurring: true,
      executed_at: null,
      failed_at: null,
      failure: null,
      scheduled_after: null,
    });
    expect(trigger.campaign).toMatchObject({ id: campaign, type: 'email_campaign', listed: false, executed_at: null });

    const shown = await t.app.inject({
      method: 'GET',
      url: `/contacts/${contact}?associations[]=contact.triggers`,
      headers,
    });
    expect(shown.json().data.triggers.map((tr: { id: string; campaign: string }) => [tr.id, tr.campaign])).toEqual([
      [trigger.id, campaign],
    ]);
    const filtered = await t.app.inject({
      method: 'GET',
      url: `/triggers/filter?event_types[]=birthday&contacts[]=${contact}`,
      headers,
    });
    expect(filtered.json().info.total).toBe(1);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/triggers/filter?event_types[]=home_anniversary&contacts[]=${contact}`,
          headers,
        })
      ).json().info.total,
    ).toBe(0);
    // A template is not one of the brand's campaigns, and is never sent on its own.
    const listed = await t.app.inject({ method: 'GET', url: `/brands/${brand}/emails`, headers });
    expect(listed.json().data.map((c: { id: string }) => c.id)).not.toContain(campaign);
  });

  it('plans next year when this year’s fire time has passed, and Feb 29 on Feb 28', async () => {
    const contact = await createContact(t.app, headers, {
      first_name: 'Leap',
      email: 'leap@example.com',
      birthday: '1992-02-29',
    });
    const res = await postTrigger({ contact, campaign: await template() });
    expect(res.statusCode, res.body).toBe(200);
    expect(iso(res.json().data.effective_at)).toBe('2027-02-28T05:00:00.000Z');
  });

  it('re-plans when the contact’s date or the user’s time zone changes', async () => {
    const contact = await createContact(t.app, headers, {
      first_name: 'Moe',
      email: 'moe@example.com',
      birthday: '1970-06-01',
    });
    const id = (await postTrigger({ contact, campaign: await template(), time: 12 * 3600 })).json().data.id;
    expect(iso((await getTrigger(id)).json().data.effective_at)).toBe('2026-06-01T16:00:00.000Z');
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/contacts/${contact}`,
          headers,
          payload: { birthday: '1970-07-04' },
        })
      ).statusCode,
    ).toBe(200);
    expect(iso((await getTrigger(id)).json().data.effective_at)).toBe('2026-07-04T16:00:00.000Z');
    const zone = await t.app.inject({
      method: 'PATCH',
      url: '/users/self',
      headers,
      payload: { timezone: 'Europe/Berlin' },
    });
    expect(zone.statusCode, zone.body).toBe(200);
    expect(iso((await getTrigger(id)).json().data.effective_at)).toBe('2026-07-04T10:00:00.000Z');
    await t.app.inject({ method: 'PATCH', url: '/users/self', headers, payload: { timezone: 'America/New_York' } });
    // The job planned for the first time finds another time on the trigger and does nothing.
    const jobs = (await queuedJobs(t.deps, ['triggers.execute'])).filter(
      (j) => (j.data as { trigger: string }).trigger === id,
    );
    expect(jobs.map((j) => j.startAfter.toISOString())).toEqual([
      '2026-06-01T16:00:00.000Z',
      '2026-07-04T16:00:00.000Z',
      '2026-07-04T10:00:00.000Z',
      '2026-07-04T16:00:00.000Z',
    ]);
    await travelTo(new Date('2026-06-02T00:00:00Z'));
    await runDue(t.clock.now());
    expect((await getTrigger(id)).json().data).toMatchObject({ executed_at: null, failed_at: null });
  });

  it('re-plans all of a user’s triggers at once: each to its own time, a dateless one failed, a deleted contact’s gone', async () => {
    const planned = async (first: string, birthday: string) => {
      const contact = await createContact(t.app, headers, {
        first_name: first,
        email: `${first.toLowerCase()}@example.com`,
        birthday,
      });
      const trigger = (await postTrigger({ contact, campaign: await template(), time: 12 * 3600 })).json().data
        .id as string;
      return { contact, trigger };
    };
    const may = await planned('May', '1970-05-01');
    const august = await planned('August', '1970-08-15');
    const cleared = await planned('Cleared', '1970-09-20');
    const deleted = await planned('Deleted', '1970-10-05');
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/contacts/${cleared.contact}`,
          headers,
          payload: { birthday: null },
        })
      ).statusCode,
    ).toBe(200);
    expect((await getTrigger(cleared.trigger)).json().data).toMatchObject({ failure: { code: 'MissingDate' } });
    expect((await t.app.inject({ method: 'DELETE', url: `/contacts/${deleted.contact}`, headers })).statusCode).toBe(
      204,
    );
    expect((await getTrigger(deleted.trigger)).statusCode).toBe(404);

    expect(
      (await t.app.inject({ method: 'PATCH', url: '/users/self', headers, payload: { timezone: 'Europe/Berlin' } }))
        .statusCode,
    ).toBe(200);
    // Noon in Berlin (CEST, UTC+2) on each contact's own date, and each job waits for its own trigger's time.
    expect(iso((await getTrigger(may.trigger)).json().data.effective_at)).toBe('2026-05-01T10:00:00.000Z');
    expect(iso((await getTrigger(august.trigger)).json().data.effective_at)).toBe('2026-08-15T10:00:00.000Z');
    const jobs = await queuedJobs(t.deps, ['triggers.execute']);
    const startsOf = (trigger: string) =>
      jobs.filter((j) => (j.data as { trigger: string }).trigger === trigger).map((j) => j.startAfter.toISOString());
    expect(startsOf(may.trigger)).toEqual(['2026-05-01T16:00:00.000Z', '2026-05-01T10:00:00.000Z']);
    expect(startsOf(august.trigger)).toEqual(['2026-08-15T16:00:00.000Z', '2026-08-15T10:00:00.000Z']);
    // The failed trigger stays failed; nothing is planned for it or for the deleted contact's.
    expect(startsOf(cleared.trigger)).toHaveLength(1);
    expect(startsOf(deleted.trigger)).toHaveLength(1);
    expect((await getTrigger(cleared.trigger)).json().data).toMatchObject({
      failure: { code: 'MissingDate' },
      executed_at: null,
    });
    expect(iso((await getTrigger(cleared.trigger)).json().data.effective_at)).toBe('2026-09-20T16:00:00.000Z');
    await t.app.inject({ method: 'PATCH', url: '/users/self', headers, payload: { timezone: 'America/New_York' } });
  });
});

describe('execution', () => {
  it('run early by this worker’s clock (the database’s runs ahead), waits the rest on the queue’s clock instead of coming straight back', async () => {
    const contact = await createContact(t.app, headers, {
      first_name: 'Skew',
      email: 'skew@example.com',
      birthday: '1985-05-02',
    });
    const trigger = (await postTrigger({ contact, campaign: await template(), time: 8 * 3600 })).json().data;
    const fireAt = new Date(trigger.effective_at * 1000);
    await travelTo(new Date(fireAt.getTime() - 600_000));
    // The queue hands the job out at its planned time (its clock says it is due) while this worker's says 10 min early.
    await runQueuedJobs(t.deps, ['triggers.execute'], { dueBy: fireAt });
    const waiting = (await queuedJobs(t.deps, ['triggers.execute'])).filter(
      (j) => (j.data as { trigger: string }).trigger === trigger.id,
    );
    expect(waiting).toHaveLength(1);
    // 600 s after the database's now (pg-boss stamps it), which is the real time here.
    expect(Math.abs(waiting[0]!.startAfter.getTime() - (Date.now() + 600_000))).toBeLessThan(60_000);
    expect((await getTrigger(trigger.id)).json().data).toMatchObject({ executed_at: null, failed_at: null });
  });

  it('sends the contact a personalised copy at the fire time, once, and plans next year’s trigger', async () => {
    const contact = await createContact(t.app, headers, {
      first_name: 'Rita',
      email: 'rita@example.com',
      birthday: '1985-04-02',
    });
    const trigger = (await postTrigger({ contact, campaign: await template(), time: 8 * 3600, recurring: true })).json()
      .data;
    const fireAt = new Date(trigger.effective_at * 1000);
    expect(fireAt.toISOString()).toBe('2026-04-02T12:00:00.000Z');

    await travelTo(new Date(fireAt.getTime() - 60_000));
    await runDue(t.clock.now());
    expect(receivedBy('rita@example.com')).toEqual([]);
    await travelTo(fireAt);
    // The job twice (a retry after a crash at commit): still one copy, one message.
    const job = (await queuedJobs(t.deps, ['triggers.execute'])).find(
      (j) => (j.data as { trigger: string }).trigger === trigger.id,
    )!;
    await t.deps.queue.enqueue(
      t.deps.db,
      (await import('./triggers.tasks.js')).executeTriggerTask,
      job.data as never,
      {},
    );
    await runDue(fireAt);
    const mails = receivedBy('rita@example.com');
    expect(mails.map((m) => m.parsed.subject)).toEqual(['Happy birthday Rita!']);
    expect(mails[0]!.parsed.html).toContain('Many happy returns, Rita.');

    const executed = (await getTrigger(trigger.id)).json().data;
    expect(iso(executed.executed_at)).toBe(fireAt.toISOString());
    const copy = (await t.app.inject({ method: 'GET', url: `/emails/${executed.sent_campaign}`, headers })).json().data;
    expect(copy).toMatchObject({
      listed: true,
      individual: true,
      sent: 1,
      accepted: 1,
      to: [{ recipient_type: 'Contact', contact }],
    });
    expect(iso(copy.due_at)).toBe(fireAt.toISOString());
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/triggers/${trigger.id}`, headers, payload: { wait_for: 3600 } }))
        .statusCode,
    ).toBe(409);

    const current = (
      await t.app.inject({ method: 'GET', url: `/contacts/${contact}?associations[]=contact.triggers`, headers })
    ).json().data.triggers;
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({
      scheduled_after: trigger.id,
      executed_at: null,
      recurring: true,
      campaign: trigger.campaign,
    });
    expect(iso(current[0].effective_at)).toBe('2027-04-02T12:00:00.000Z');
  });

  it('fails a trigger whose contact has no email, tells its user, and goes on next year when recurring', async () => {
    const contact = await createContact(t.app, headers, { first_name: 'Nomail', birthday: '1990-05-05' });
    const trigger = (await postTrigger({ contact, campaign: await template(), recurring: true })).json().data;
    const fireAt = new Date(trigger.effective_at * 1000);
    await travelTo(fireAt);
    await runDue(fireAt);
    const failed = (await getTrigger(trigger.id)).json().data;
    expect(failed.failure).toEqual({ code: 'NoEmail', message: 'The contact has no email address' });
    expect(iso(failed.failed_at)).toBe(fireAt.toISOString());
    expect(failed.executed_at).toBeNull();
    const feed = (await t.app.inject({ method: 'GET', url: '/notifications', headers })).json();
    expect(feed.data.map((n: { message: string }) => n.message)).toContain(
      'A scheduled birthday email was not sent: the contact has no email address.',
    );
    const next = await t.deps.db
      .selectFrom('triggers')
      .select('effective_at')
      .where('scheduled_after', '=', trigger.id)
      .executeTakeFirstOrThrow();
    expect(next.effective_at.toISOString()).toBe('2027-05-05T04:00:00.000Z');
  });
});

describe('deleting', () => {
  it('answers 204, deletes the rest of the chain and cancels the unsent template; the template cannot be deleted while used', async () => {
    const contact = await createContact(t.app, headers, {
      first_name: 'Del',
      email: 'del@example.com',
      birthday: '1980-12-24',
    });
    const campaign = await template();
    const trigger = (await postTrigger({ contact, campaign })).json().data;
    expect((await t.app.inject({ method: 'DELETE', url: `/emails/${campaign}`, headers })).statusCode).toBe(409);
    expect((await t.app.inject({ method: 'DELETE', url: `/triggers/${trigger.id}`, headers })).statusCode).toBe(204);
    expect((await getTrigger(trigger.id)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/emails/${campaign}`, headers })).statusCode).toBe(404);
    await travelTo(new Date(trigger.effective_at * 1000));
    await runDue(t.clock.now());
    expect(receivedBy('del@example.com')).toEqual([]);
  });

  it('deleting the contact deletes its pending triggers', async () => {
    const contact = await createContact(t.app, headers, {
      first_name: 'Gone',
      email: 'gone@example.com',
      birthday: '1980-11-11',
    });
    const trigger = (await postTrigger({ contact, campaign: await template() })).json().data;
    expect((await t.app.inject({ method: 'DELETE', url: `/contacts/${contact}`, headers })).statusCode).toBe(204);
    expect((await getTrigger(trigger.id)).statusCode).toBe(404);
  });
});

describe('refused', () => {
  it('answers a clear 4xx and writes nothing', async () => {
    const contact = await createContact(t.app, headers, { first_name: 'Plain', email: 'plain@example.com' });
    const dated = await createContact(t.app, headers, {
      first_name: 'Dated',
      email: 'dated@example.com',
      birthday: '1980-01-01',
    });
    const campaign = await template();
    const other = (await createBrand(t.deps)).id;
    const stranger = (await createUser(t.deps)).id;
    await addMembership(t.deps, stranger, other, ['CRM', 'Marketing']);
    const strangerHeaders = { ...bearer(await tokenFor(t.deps, stranger)), 'x-rechat-brand': other };
    const foreignContact = await createContact(t.app, strangerHeaders, { first_name: 'Far', birthday: '1980-01-01' });
    const foreignCampaign = (
      await postCampaign(t.app, strangerHeaders, {
        subject: 'x',
        html: '<p>x</p>',
        due_at: START.getTime() / 1000 + 86400,
        to: [{ recipient_type: 'Email', email: 'x@example.com' }],
      })
    ).json().data.id;
    const before = await triggerCount();
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ contact, campaign }, 400, /contact has no birthday/],
      [{ contact: foreignContact, campaign }, 404, /Contact not found/],
      [{ contact: dated, campaign: foreignCampaign }, 404, /Email campaign not found/],
      [{ contact: dated, campaign, user: stranger }, 404, /User not found/],
      [{ contact: dated, campaign, wait_for: 1.5 }, 400, /wait_for/],
      [{ contact: dated, campaign, wait_for: 400 * 86400 }, 400, /wait_for/],
      [{ contact: dated, campaign, event_type: 'anniversary' }, 400, /event_type/],
      [{ contact: dated, campaign, action: 'send_sms' }, 400, /action/],
      [{ contact: dated, campaign, time: 86400 }, 400, /time/],
    ];
    for (const [body, status, message] of cases) {
      const res = await postTrigger(body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(status);
      expect(res.body).toMatch(message);
    }
    expect(await triggerCount()).toBe(before);
    const mine = (await postTrigger({ contact: dated, campaign })).json().data.id;
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await t.app.inject({
        method,
        url: `/triggers/${mine}`,
        headers: strangerHeaders,
        ...(method === 'PATCH' ? { payload: { wait_for: 0 } } : {}),
      });
      expect(res.statusCode, method).toBe(404);
    }
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/triggers/${mine}`,
          headers,
          payload: { event_type: 'home_anniversary' },
        })
      ).statusCode,
    ).toBe(400);
  });
});
