// Campaigns sent over a real loopback SMTP relay: recipients resolved at send time, personalisation, signature,
// unsubscribed contacts skipped, and the counters moved by the SMTP conversation.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSmtpSink } from '../../../test/fakes/smtp.js';
import { useTestApp } from '../../../test/helpers/app.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { createContact, marketer, postCampaign, to } from '../../../test/helpers/emails.js';

const smtp = useSmtpSink();
const t = useTestApp({ env: smtp.env });
let m: Awaited<ReturnType<typeof marketer>>;
const contacts: Record<string, string> = {};

beforeAll(async () => {
  m = await marketer(t.deps);
  await t.deps.db
    .updateTable('users')
    .set({ first_name: 'Dana', last_name: 'Reyes', email_signature: '<b>Dana Reyes</b>, Downtown Realty' })
    .where('id', '=', m.user)
    .execute();
  contacts.ann = await createContact(t.app, m.headers, {
    first_name: 'Ann <script>',
    last_name: 'Lee',
    email: 'ann@example.com',
    tags: ['buyers'],
  });
  contacts.bob = await createContact(t.app, m.headers, {
    first_name: 'Bob',
    email: 'bob@example.com',
    tags: ['buyers'],
  });
  contacts.gone = await createContact(t.app, m.headers, {
    first_name: 'Gone',
    email: 'gone@example.com',
    tags: ['buyers'],
    unsubscribed: true,
  });
  contacts.refused = await createContact(t.app, m.headers, {
    first_name: 'Ref',
    email: 'refuse-me@example.com',
    tags: ['buyers'],
  });
  contacts.noEmail = await createContact(t.app, m.headers, { first_name: 'Nomail', tags: ['buyers'] });
});

const sendAll = () => runQueuedJobs(t.deps, ['emails.execute', 'mail.send']);
const receivedBy = (address: string) => smtp.sink.received.filter((r) => r.envelope.to.includes(address));

describe('individual campaigns', () => {
  it('sends one personalised message per recipient, once each, and counts what the relay accepted and refused', async () => {
    const created = await postCampaign(t.app, m.headers, {
      subject: 'Hi {{ contact.first_name }}!',
      html: '<p>Hello {{ contact.first_name }} {{ contact.last_name }}{{ contact.nickname }}, from {{ sender.first_name }}. <a href="https://example.com/listing">See it</a></p>',
      individual: true,
      include_signature: true,
      headers: { 'X-Campaign': 'buyers' },
      to: [
        { recipient_type: 'Contact', contact: contacts.ann },
        { recipient_type: 'Tag', tag: 'buyers' },
        to('gone@example.com'),
      ],
      bcc: [to('ann@example.com'), to('walkin@example.com')],
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id;
    await sendAll();

    const ann = receivedBy('ann@example.com');
    expect(ann.length).toBe(1);
    const mail = ann[0]!.parsed;
    expect(mail.subject).toBe('Hi Ann <script>!');
    expect(mail.html).toContain('Hello Ann &lt;script&gt; Lee, from Dana.');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('<b>Dana Reyes</b>, Downtown Realty');
    expect(mail.text).toContain('Hello Ann <script> Lee, from Dana.');
    expect(mail.text).toContain('Dana Reyes, Downtown Realty');
    expect(mail.from?.text).toBe('"Dana Reyes" <no-reply@gable.test>');
    expect(mail.replyTo?.text).toBe(
      `${(await t.deps.db.selectFrom('users').select('email').where('id', '=', m.user).executeTakeFirstOrThrow()).email}`,
    );
    expect(mail.headers.get('x-campaign')).toBe('buyers');
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('ann@example.com');
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@gable\.test>$/);

    expect(receivedBy('bob@example.com').map((r) => r.parsed.subject)).toEqual(['Hi Bob!']);
    expect(receivedBy('walkin@example.com').map((r) => r.parsed.subject)).toEqual(['Hi !']);
    expect(receivedBy('gone@example.com')).toEqual([]);
    expect(receivedBy('refuse-me@example.com')).toEqual([]);

    const record = (await t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: m.bare })).json().data;
    expect(record).toMatchObject({ recipients_count: 4, stored: 4, sent: 4, accepted: 3, rejected: 1, failure: null });
    expect(record.executed_at).toBe(t.clock.now().getTime() / 1000);

    // The jobs again (as after a retry): nothing more is sent.
    const before = smtp.sink.received.length;
    await runQueuedJobs(t.deps, ['emails.execute', 'mail.send']);
    const { executeCampaign } = await import('./emails.send.js');
    const { executeCampaignTask } = await import('./emails.tasks.js');
    const { chunkRowsOf } = await import('../../jobs/task.js');
    await executeCampaign(t.deps, id, chunkRowsOf(executeCampaignTask, t.deps));
    expect(smtp.sink.received.length).toBe(before);
  });
});

describe('one message to everyone', () => {
  it('puts to and cc in the headers, bcc only in the envelope, with unknown variables empty', async () => {
    const created = await postCampaign(t.app, m.headers, {
      subject: 'Market update {{ contact.first_name }}',
      html: '<h1>Prices</h1><p>Dear {{ contact.first_name }}client</p>',
      text: 'Plain {{ nothing.here }}version',
      to: [{ recipient_type: 'Contact', contact: contacts.bob }, to('team@example.com')],
      cc: [to('boss@example.com')],
      bcc: [to('archive@example.com'), { recipient_type: 'Contact', contact: contacts.gone }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const before = smtp.sink.received.length;
    await sendAll();
    const arrived = smtp.sink.received.slice(before);
    expect(arrived.length).toBe(1);
    const [mail] = arrived;
    expect(mail!.envelope.to.sort()).toEqual([
      'archive@example.com',
      'bob@example.com',
      'boss@example.com',
      'team@example.com',
    ]);
    expect(mail!.parsed.subject).toBe('Market update');
    expect(mail!.parsed.text?.trim()).toBe('Plain version');
    expect(mail!.parsed.html).toContain('Dear client');
    expect(mail!.raw).not.toMatch(/archive@example\.com/);
    const record = (
      await t.app.inject({ method: 'GET', url: `/emails/${created.json().data.id}`, headers: m.bare })
    ).json().data;
    expect(record).toMatchObject({ recipients_count: 4, stored: 1, sent: 1, accepted: 4, rejected: 0 });
  });

  it('a campaign whose recipients all unsubscribed sends nothing and says why', async () => {
    const created = await postCampaign(t.app, m.headers, {
      subject: 's',
      html: 'h',
      to: [
        { recipient_type: 'Contact', contact: contacts.gone },
        { recipient_type: 'Contact', contact: contacts.noEmail },
      ],
    });
    await sendAll();
    const record = (
      await t.app.inject({ method: 'GET', url: `/emails/${created.json().data.id}`, headers: m.bare })
    ).json().data;
    expect(record).toMatchObject({ recipients_count: 0, sent: 0, failure: { code: 'NoRecipients' } });
    expect(record.failed_at).not.toBeNull();
  });

  it('a contact deleted between create and send is skipped', async () => {
    const late = await createContact(t.app, m.headers, { first_name: 'Late', email: 'late@example.com' });
    await postCampaign(t.app, m.headers, {
      subject: 'Hi',
      html: 'h',
      to: [{ recipient_type: 'Contact', contact: late }, to('keep@example.com')],
    });
    expect((await t.app.inject({ method: 'DELETE', url: `/contacts/${late}`, headers: m.bare })).statusCode).toBe(204);
    await sendAll();
    expect(receivedBy('late@example.com')).toEqual([]);
    expect(receivedBy('keep@example.com').length).toBe(1);
  });
});

describe('templates that cannot render', () => {
  it('a template over the render limits fails the campaign instead of retrying forever', async () => {
    const created = await postCampaign(t.app, m.headers, {
      subject: 's',
      html: '{% for i in (1..100000000) %}{% for j in (1..1000) %}x{% endfor %}{% endfor %}',
      to: [to('loop@example.com')],
    });
    expect(created.statusCode, created.body).toBe(200);
    await sendAll();
    const record = (
      await t.app.inject({ method: 'GET', url: `/emails/${created.json().data.id}`, headers: m.bare })
    ).json().data;
    expect(record).toMatchObject({ sent: 0, failure: { code: 'TemplateError' } });
    expect(receivedBy('loop@example.com')).toEqual([]);
  });
});

describe('chunks (ADR 0039)', () => {
  // 25 contacts of a tag, 10 recipients a transaction: three chunks; a retry goes on after the last one committed.
  const CONTACTS = 25;
  const ledgerOf = async (id: string) =>
    (await t.deps.db.selectFrom('mail_messages').select('to_addresses').where('campaign', '=', id).execute()).map(
      (r) => r.to_addresses[0]!,
    );

  beforeAll(async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: m.headers,
      payload: {
        contacts: Array.from({ length: CONTACTS }, (_, i) => ({
          first_name: `Chunk${i}`,
          email: `chunk${String(i).padStart(2, '0')}@example.com`,
          tags: ['chunked'],
        })),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  const post = async () => {
    const res = await postCampaign(t.app, m.headers, {
      subject: 'Chunk {{ contact.first_name }}',
      html: '<p>x</p>',
      individual: true,
      to: [{ recipient_type: 'Tag', tag: 'chunked' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as string;
  };

  it('queues an individual campaign chunk by chunk, each recipient once, and counts them all', async () => {
    const { executeCampaign } = await import('./emails.send.js');
    const id = await post();
    const transactions: number[] = [];
    const counting = {
      ...t.deps,
      db: new Proxy(t.deps.db, {
        get: (db, key) =>
          key === 'transaction' ? () => (transactions.push(1), db.transaction()) : Reflect.get(db, key),
      }),
    };
    await executeCampaign(counting, id, 10);
    expect(transactions).toHaveLength(3);
    const ledger = await ledgerOf(id);
    expect(ledger).toHaveLength(CONTACTS);
    expect(new Set(ledger).size).toBe(CONTACTS);
    const record = (await t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: m.bare })).json().data;
    expect(record).toMatchObject({ recipients_count: CONTACTS, failure: null });
    expect(record.executed_at).not.toBeNull();
  });

  it('a retry after a committed chunk goes on after it; a campaign being sent can no longer change', async () => {
    const { executeCampaign } = await import('./emails.send.js');
    const id = await post();
    // As a job killed after its first chunk of 10 committed leaves it: the progress recorded (and its 10 queued).
    await t.deps.db
      .updateTable('email_campaigns')
      .set({ queued_through: 'chunk09@example.com' })
      .where('id', '=', id)
      .execute();
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/emails/${id}`, headers: m.bare, payload: { subject: 'Changed' } }))
        .statusCode,
    ).toBe(409);
    expect((await t.app.inject({ method: 'DELETE', url: `/emails/${id}`, headers: m.bare })).statusCode).toBe(409);
    await executeCampaign(t.deps, id, 10);
    expect((await ledgerOf(id)).sort()).toEqual(
      Array.from({ length: CONTACTS - 10 }, (_, i) => `chunk${String(i + 10).padStart(2, '0')}@example.com`),
    );
    expect(
      (await t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: m.bare })).json().data.recipients_count,
    ).toBe(CONTACTS);
  });
});
