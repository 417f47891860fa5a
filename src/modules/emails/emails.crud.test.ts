// Email campaign records: create, read, list, change and delete; the Marketing ACL; bad input queues nothing.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { queuedJobs, runQueuedJobs } from '../../../test/helpers/jobs.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { createContact, marketer, postCampaign, to } from '../../../test/helpers/emails.js';

const t = useTestApp({ now: new Date('2026-11-24T12:00:00Z') });
let m: Awaited<ReturnType<typeof marketer>>;
let other: Awaited<ReturnType<typeof marketer>>;

beforeAll(async () => {
  m = await marketer(t.deps);
  other = await marketer(t.deps);
});

const counts = async () => {
  const campaigns = await t.deps.db
    .selectFrom('email_campaigns')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const jobs = await sql<{
    n: string;
  }>`select count(*) as n from pgboss.job where name like 'emails.%' or name like 'mail.%'`.execute(t.deps.db);
  return { campaigns: Number(campaigns.n), jobs: Number(jobs.rows[0]!.n) };
};

describe('create and read', () => {
  it('creates a campaign with every field of spec 2.6 and schedules it at due_at', async () => {
    const due = Date.parse('2026-11-25T09:30:00Z') / 1000;
    const res = await postCampaign(t.app, m.headers, {
      subject: 'Open house',
      html: '<p>Come by</p>',
      due_at: due,
      include_signature: true,
      individual: true,
      headers: { 'X-Campaign': 'fall' },
      to: [to('ann@example.com')],
      cc: [to('carl@example.com')],
      tags: ['fall'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      type: 'email_campaign',
      brand: m.brand,
      created_by: m.user,
      subject: 'Open house',
      html: '<p>Come by</p>',
      text: null,
      due_at: due,
      executed_at: null,
      include_signature: true,
      individual: true,
      headers: { 'X-Campaign': 'fall' },
      to: [{ recipient_type: 'Email', email: 'ann@example.com' }],
      cc: [{ recipient_type: 'Email', email: 'carl@example.com' }],
      bcc: [],
      sent: 0,
      accepted: 0,
      rejected: 0,
      delivered: 0,
      failed: 0,
      opened: 0,
      clicked: 0,
      unsubscribed: 0,
      complained: 0,
      stored: 0,
      google_credential: null,
      extmail_credential: null,
      thread_key: null,
      failed_at: null,
      failure: null,
      tags: ['fall'],
      recipients_count: null,
      archive: false,
      notifications_enabled: false,
    });
    const [job] = (await queuedJobs(t.deps, ['emails.execute'])).filter(
      (j) => (j.data as { campaign: string }).campaign === data.id,
    );
    expect(job!.startAfter.getTime()).toBe(due * 1000);

    const got = await t.app.inject({ method: 'GET', url: `/emails/${data.id}`, headers: m.bare });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toEqual(data);
  });

  it('a missing or past due_at means now', async () => {
    const past = await postCampaign(t.app, m.headers, {
      subject: 's',
      html: 'h',
      due_at: 1000,
      to: [to('a@example.com')],
    });
    expect(past.json().data.due_at).toBe(t.clock.now().getTime() / 1000);
    const none = await postCampaign(t.app, m.headers, { subject: 's', html: 'h', to: [to('a@example.com')] });
    expect(none.json().data.due_at).toBe(t.clock.now().getTime() / 1000);
  });

  it('lists a brand’s campaigns newest first with an exact total', async () => {
    const brand = await marketer(t.deps);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1);
      ids.push(
        (await postCampaign(t.app, brand.headers, { subject: `n${i}`, html: 'h', to: [to('a@example.com')] })).json()
          .data.id,
      );
    }
    const page = await t.app.inject({
      method: 'GET',
      url: `/brands/${brand.brand}/emails?start=1&limit=1`,
      headers: brand.bare,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json().info).toEqual({ count: 1, total: 3 });
    expect(page.json().data.map((c: { id: string }) => c.id)).toEqual([ids[1]]);
  });
});

describe('access (Marketing ACL)', () => {
  it('CRM alone cannot create or list; another brand’s campaign is 404; another brand’s list is 403', async () => {
    const crmOnly = await marketer(t.deps, { brand: m.brand, acl: ['CRM'] });
    expect(
      (await postCampaign(t.app, crmOnly.headers, { subject: 's', html: 'h', to: [to('a@example.com')] })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: `/brands/${m.brand}/emails`, headers: crmOnly.bare })).statusCode,
    ).toBe(403);
    const id = (await postCampaign(t.app, m.headers, { subject: 's', html: 'h', to: [to('a@example.com')] })).json()
      .data.id;
    for (const method of ['GET', 'DELETE'] as const)
      expect((await t.app.inject({ method, url: `/emails/${id}`, headers: other.bare })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/emails/${id}`, headers: other.bare, payload: { subject: 'x' } }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: crmOnly.bare })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/brands/${m.brand}/emails`, headers: other.bare })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/emails/${id}` })).statusCode).toBe(401);
  });
});

describe('bad input: a clear 4xx and nothing queued', () => {
  it('another brand’s contact or tag is 404; header injection, oversized html, no recipient, bad templates are 400', async () => {
    const foreignContact = await createContact(t.app, other.headers, {
      first_name: 'Theirs',
      email: 'theirs@example.com',
      tags: ['vip'],
    });
    const before = await counts();
    const cases: [Record<string, unknown>, number, string?][] = [
      [{ subject: 's', html: 'h', to: [{ recipient_type: 'Contact', contact: foreignContact }] }, 404],
      [{ subject: 's', html: 'h', to: [{ recipient_type: 'Tag', tag: 'vip' }] }, 404],
      [{ subject: 's', html: 'h', to: [{ recipient_type: 'Brand', brand: other.brand }] }, 404],
      [{ subject: 'Hi\r\nBcc: victim@example.com', html: 'h', to: [to('a@example.com')] }, 400, 'subject'],
      [{ subject: 'Hi\nthere', html: 'h', to: [to('a@example.com')] }, 400, 'subject'],
      [
        { subject: 's', html: 'h', headers: { 'X-A': 'b\r\nBcc: victim@example.com' }, to: [to('a@example.com')] },
        400,
        'headers.X-A',
      ],
      [{ subject: 's', html: 'h', headers: { 'X-A\r\nBcc': 'x' }, to: [to('a@example.com')] }, 400],
      [
        { subject: 's', html: 'h', headers: { From: 'ceo@bank.example' }, to: [to('a@example.com')] },
        400,
        'headers.From',
      ],
      [{ subject: 's', html: 'x'.repeat(2 * 1024 * 1024 + 1), to: [to('a@example.com')] }, 400, 'html'],
      [{ subject: 's', html: 'h' }, 400, 'to'],
      [{ subject: 's', html: 'h', to: [] }, 400, 'to'],
      [{ subject: 's', html: 'h', to: [{ recipient_type: 'Contact' }] }, 400, 'to.0.contact'],
      [{ subject: 's', html: 'h', to: [{ recipient_type: 'Fax', email: 'a@example.com' }] }, 400],
      [{ subject: 's', html: 'h', to: [{ recipient_type: 'Email', email: 'not an email' }] }, 400],
      [{ subject: 's', html: '{% include "/etc/passwd" %}', to: [to('a@example.com')] }, 400, 'html'],
      [{ subject: 's', html: '{{ unclosed', to: [to('a@example.com')] }, 400, 'html'],
      [{ subject: 's', html: 'h\u0000', to: [to('a@example.com')] }, 400, 'html'],
      [{ subject: 's', html: 'h', due_at: 1e300, to: [to('a@example.com')] }, 400, 'due_at'],
      [{ subject: 's', html: 'h', due_at: 'tomorrow', to: [to('a@example.com')] }, 400],
    ];
    for (const [body, status, field] of cases) {
      const res = await postCampaign(t.app, m.headers, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 100) + res.body).toBe(status);
      if (field) expect(Object.keys(res.json().attributes ?? {}), res.body).toContain(field);
    }
    expect(await counts()).toEqual(before);
  });

  it('a 2 MiB html is accepted', async () => {
    const res = await postCampaign(t.app, m.headers, {
      subject: 's',
      html: 'x'.repeat(2 * 1024 * 1024),
      to: [to('a@example.com')],
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('change and delete', () => {
  it('PATCH merges and reschedules; DELETE cancels; both are 409 once sent', async () => {
    const id = (
      await postCampaign(t.app, m.headers, {
        subject: 'Draft',
        html: '<p>x</p>',
        due_at: t.clock.now().getTime() / 1000 + 3600,
        to: [to('a@example.com')],
      })
    ).json().data.id;
    const later = t.clock.now().getTime() / 1000 + 7200;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/emails/${id}`,
      headers: m.bare,
      payload: { subject: 'Final', due_at: later },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({
      subject: 'Final',
      html: '<p>x</p>',
      due_at: later,
      to: [to('a@example.com')],
    });
    const jobs = (await queuedJobs(t.deps, ['emails.execute'])).filter(
      (j) => (j.data as { campaign: string }).campaign === id,
    );
    expect(jobs.map((j) => j.startAfter.getTime() / 1000)).toContain(later);
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/emails/${id}`, headers: m.bare, payload: { subject: 'a\r\nb' } }))
        .statusCode,
    ).toBe(400);

    const doomed = (
      await postCampaign(t.app, m.headers, { subject: 'Doomed', html: 'h', to: [to('a@example.com')] })
    ).json().data.id;
    expect((await t.app.inject({ method: 'DELETE', url: `/emails/${doomed}`, headers: m.bare })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/emails/${doomed}`, headers: m.bare })).statusCode).toBe(404);

    // Run everything due: the deleted campaign sends nothing; the rescheduled one runs when due.
    t.clock.advance(7200);
    await runQueuedJobs(t.deps, ['emails.execute']);
    const ledger = await t.deps.db
      .selectFrom('mail_messages')
      .select('campaign')
      .where('campaign', 'in', [id, doomed])
      .execute();
    expect(ledger.map((r) => r.campaign)).toEqual([id]);
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/emails/${id}`, headers: m.bare, payload: { subject: 'Too late' } }))
        .statusCode,
    ).toBe(409);
    expect((await t.app.inject({ method: 'DELETE', url: `/emails/${id}`, headers: m.bare })).statusCode).toBe(409);
  });

  it('run early by this worker’s clock (the database’s runs ahead), waits the rest on the queue’s clock instead of coming straight back', async () => {
    const due = t.clock.now().getTime() / 1000 + 900;
    const id = (
      await postCampaign(t.app, m.headers, {
        subject: 'Skew',
        html: '<p>x</p>',
        due_at: due,
        to: [to('a@example.com')],
      })
    ).json().data.id;
    // The queue hands the job out at due_at (its clock says it is due) while this worker's says 15 min early.
    await runQueuedJobs(t.deps, ['emails.execute'], { dueBy: new Date(due * 1000) });
    const waiting = (await queuedJobs(t.deps, ['emails.execute'])).filter(
      (j) => (j.data as { campaign: string }).campaign === id && j.startAfter.getTime() > due * 1000,
    );
    expect(waiting).toHaveLength(1);
    // 900 s after the database's now (pg-boss stamps it), which is the real time here.
    expect(Math.abs(waiting[0]!.startAfter.getTime() - (Date.now() + 900_000))).toBeLessThan(60_000);
    expect(
      (await t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: m.bare })).json().data.executed_at,
    ).toBeNull();
  });

  it('a sub-brand is a valid Brand recipient', async () => {
    const team = await createBrand(t.deps, { parent: m.brand });
    const res = await postCampaign(t.app, m.headers, {
      subject: 's',
      html: 'h',
      to: [{ recipient_type: 'Brand', brand: team.id }],
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
