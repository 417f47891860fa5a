// Email campaigns sent through a linked mailbox (Graph sendMail on the loopback fake) instead of SMTP: the same
// ledger, counters and exactly-once sending; the credential checked when the campaign is written and again
// when it is sent; a revoked grant fails the message for good.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { createContact } from '../../../test/helpers/emails.js';
import { fakeEnv, linkMailbox, mailboxOwner, useFakeMicrosoft, type Owner } from '../../../test/helpers/extmail.js';

const fake = useFakeMicrosoft();
const t = useTestApp({ env: fakeEnv(fake) });

let accounts = 0;
async function sender(scopes: string[] = ['Mail.Send']) {
  const owner = await mailboxOwner(t.deps);
  const id = `remote-send-${++accounts}`;
  fake.account = { id, mail: `${id}@contoso.test`, displayName: `Sender ${accounts}` };
  const { row } = await linkMailbox(t, owner, { body: scopes });
  return { owner, account: id, address: `${id}@contoso.test`, credential: row.id };
}

const post = (owner: Owner, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/emails', headers: owner.headers, payload: body });
const sendAll = () => runQueuedJobs(t.deps, ['emails.execute', 'mail.send'], { tolerateFailures: true });
const campaign = async (owner: Owner, id: string) =>
  (await t.app.inject({ url: `/emails/${id}`, headers: owner.headers })).json().data;
const sentFrom = (address: string) => fake.sent.filter((s) => s.from === address);

describe('a campaign with extmail_credential', () => {
  it('goes out through Graph sendMail from the user’s own address, once per recipient, with the counters', async () => {
    const s = await sender();
    const ann = await createContact(t.app, s.owner.headers, { first_name: 'Ann', email: 'ann@example.com' });
    const created = await post(s.owner, {
      subject: 'Hi {{ contact.first_name }}',
      html: '<p>Hello {{ contact.first_name }}</p>',
      individual: true,
      headers: { 'X-Campaign': 'spring' },
      to: [
        { recipient_type: 'Contact', contact: ann },
        { recipient_type: 'Email', email: 'walkin@example.com' },
      ],
      extmail_credential: s.credential,
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().data.extmail_credential).toBe(s.credential);
    await sendAll();

    const sent = sentFrom(s.address);
    expect(sent).toHaveLength(2);
    const toAnn = sent.find((m) => JSON.stringify(m.message.toRecipients).includes('ann@example.com'))!;
    // The campaign's HTML, with its tracking pixel (marketing mail is tracked whichever way it leaves).
    expect(toAnn.message).toMatchObject({
      subject: 'Hi Ann',
      body: {
        contentType: 'HTML',
        content: expect.stringMatching(/^<p>Hello Ann<\/p>\n<img src="http:\/\/gable\.test\/mail\/open\//),
      },
      toRecipients: [{ emailAddress: { address: 'ann@example.com' } }],
    });
    expect(toAnn.saveToSentItems).toBe(true);
    expect(toAnn.message.internetMessageHeaders).toEqual(
      expect.arrayContaining([
        { name: 'X-Campaign', value: 'spring' },
        { name: 'X-Gable-Message-Id', value: expect.stringMatching(/^<[0-9a-f-]{36}@gable\.test>$/) },
      ]),
    );

    const id = created.json().data.id;
    expect(await campaign(s.owner, id)).toMatchObject({
      recipients_count: 2,
      sent: 2,
      accepted: 2,
      rejected: 0,
      failure: null,
    });
    const ledger = await t.deps.db
      .selectFrom('mail_messages')
      .select(['state', 'from_address', 'extmail_credential'])
      .where('campaign', '=', id)
      .execute();
    expect(ledger).toEqual([
      { state: 'sent', from_address: s.address, extmail_credential: s.credential },
      { state: 'sent', from_address: s.address, extmail_credential: s.credential },
    ]);
    // The jobs again (as after a retry): nothing more is sent.
    await sendAll();
    expect(sentFrom(s.address)).toHaveLength(2);
  });

  it('retries a throttled send and sends it once', async () => {
    const s = await sender();
    const created = await post(s.owner, {
      subject: 'Once',
      html: '<p>x</p>',
      to: [{ recipient_type: 'Email', email: 'once@example.com' }],
      extmail_credential: s.credential,
    });
    expect(created.statusCode, created.body).toBe(200);
    fake.throttleNext(1, 429, '1');
    await sendAll();
    expect(sentFrom(s.address)).toHaveLength(0);
    const [row] = await t.deps.db
      .selectFrom('mail_messages')
      .select(['state', 'last_error'])
      .where('campaign', '=', created.json().data.id)
      .execute();
    expect(row!.last_error).toContain('throttled');
    await runQueuedJobs(t.deps, ['mail.send'], { dueBy: new Date(Date.now() + 3600_000) });
    expect(sentFrom(s.address)).toHaveLength(1);
    expect(await campaign(s.owner, created.json().data.id)).toMatchObject({ sent: 1, accepted: 1 });
  });

  it('fails the message for good and revokes the credential when the provider refuses the grant', async () => {
    const s = await sender();
    const created = await post(s.owner, {
      subject: 'Revoked',
      html: '<p>x</p>',
      to: [{ recipient_type: 'Email', email: 'r@example.com' }],
      extmail_credential: s.credential,
    });
    fake.revokeGrants(s.account);
    await sendAll();
    expect(sentFrom(s.address)).toHaveLength(0);
    const [row] = await t.deps.db
      .selectFrom('mail_messages')
      .select(['state'])
      .where('campaign', '=', created.json().data.id)
      .execute();
    expect(row!.state).toBe('failed');
    expect(
      (
        await t.deps.db
          .selectFrom('extmail_credentials')
          .select('revoked')
          .where('id', '=', s.credential)
          .executeTakeFirstOrThrow()
      ).revoked,
    ).toBe(true);
  });

  it('refuses a credential that is not the caller’s, lacks Mail.Send, or is revoked (400, nothing stored)', async () => {
    const s = await sender();
    const other = await sender();
    const readOnly = await sender(['Contacts.Read']);
    const body = { subject: 'x', html: '<p>x</p>', to: [{ recipient_type: 'Email', email: 'x@example.com' }] };
    for (const [who, credential] of [
      [s.owner, other.credential],
      [readOnly.owner, readOnly.credential],
      [s.owner, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await post(who, { ...body, extmail_credential: credential });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().attributes).toHaveProperty('extmail_credential');
    }
    await t.deps.db
      .updateTable('extmail_credentials')
      .set({ revoked: true })
      .where('id', '=', other.credential)
      .execute();
    expect((await post(other.owner, { ...body, extmail_credential: other.credential })).statusCode).toBe(400);
    expect(
      Number(
        (
          await t.deps.db
            .selectFrom('email_campaigns')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('created_by', 'in', [s.owner.user, readOnly.owner.user, other.owner.user])
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(0);
  });

  it('records a failure instead of sending when the mailbox was unlinked before the campaign ran', async () => {
    const s = await sender();
    const created = await post(s.owner, {
      subject: 'Later',
      html: '<p>x</p>',
      to: [{ recipient_type: 'Email', email: 'later@example.com' }],
      extmail_credential: s.credential,
    });
    await t.app.inject({ method: 'DELETE', url: `/users/self/extmail/${s.credential}`, headers: s.owner.headers });
    await sendAll();
    expect(await campaign(s.owner, created.json().data.id)).toMatchObject({
      sent: 0,
      failure: { code: 'ExtmailUnavailable' },
    });
    expect(sentFrom(s.address)).toHaveLength(0);
  });
});
