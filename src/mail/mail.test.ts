// The mail platform over a real loopback SMTP relay, and the .eml files of embedded mode.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { runAdminCommand } from '../../test/helpers/cli.js';
import { queuedJobs, runQueuedJobs } from '../../test/helpers/jobs.js';
import { useSmtpSink } from '../../test/fakes/smtp.js';
import type { Deps } from '../platform/deps.js';
import { registerMailCommands } from './mail.cli.js';
import { findMessage } from './mail.repository.js';
import { queueMessages, sendQueuedMessages, UnsafeMessageError, type OutgoingMessage } from './mail.service.js';
import { emlPath } from './transport.js';

const message = (fields: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  purpose: 'test',
  to: ['ann@example.com'],
  subject: 'Hello',
  html: '<p>Hello <b>Ann</b></p>',
  text: 'Hello Ann',
  ...fields,
});

async function queue(deps: Deps, messages: OutgoingMessage[]) {
  return deps.db.transaction().execute((trx) => queueMessages(trx, deps, messages));
}

describe('mail over SMTP', () => {
  const smtp = useSmtpSink();
  const t = useTestApp({ env: smtp.env });

  it('writes the ledger row before sending, then sends it once with its Message-ID', async () => {
    const [id] = await queue(t.deps, [
      message({ cc: ['carl@example.com'], bcc: ['bea@example.com'], headers: { 'X-Campaign': 'spring' } }),
    ]);
    const row = await findMessage(t.deps.db, id!);
    expect(row).toMatchObject({ state: 'queued', attempts: 0, message_id: `<${id}@gable.test>` });
    expect(smtp.sink.received.length).toBe(0);

    await runQueuedJobs(t.deps, ['mail.send']);
    const mail = smtp.sink.received.at(-1)!;
    expect(mail.parsed.messageId).toBe(`<${id}@gable.test>`);
    expect(mail.envelope.to.sort()).toEqual(['ann@example.com', 'bea@example.com', 'carl@example.com']);
    expect(mail.parsed.headers.get('x-campaign')).toBe('spring');
    expect(mail.raw).not.toMatch(/^bcc:/im);
    expect(mail.parsed.text?.trim()).toBe('Hello Ann');
    expect(await findMessage(t.deps.db, id!)).toMatchObject({ state: 'sent', attempts: 1, rejected: [] });
    expect((await findMessage(t.deps.db, id!))!.smtp_response).toMatch(/^250/);

    // A retried job does not send what the ledger says is sent.
    const before = smtp.sink.received.length;
    await sendQueuedMessages(t.deps, [id!]);
    expect(smtp.sink.received.length).toBe(before);
  });

  it('counts recipients the relay refuses as rejected; a message refused for everyone is not retried', async () => {
    const [partly, wholly] = await queue(t.deps, [
      message({ to: ['ok@example.com', 'refuse-1@example.com'] }),
      message({ to: ['refuse-2@example.com'] }),
    ]);
    await runQueuedJobs(t.deps, ['mail.send']);
    expect(await findMessage(t.deps.db, partly!)).toMatchObject({
      state: 'sent',
      accepted: ['ok@example.com'],
      rejected: ['refuse-1@example.com'],
    });
    expect(await findMessage(t.deps.db, wholly!)).toMatchObject({
      state: 'refused',
      accepted: [],
      rejected: ['refuse-2@example.com'],
    });
    expect(await queuedJobs(t.deps, ['mail.send'])).toEqual([]);
  });

  it('retries a temporary failure and a send interrupted mid-flight with the same Message-ID', async () => {
    const [id] = await queue(t.deps, [message({ to: ['retry@example.com'] })]);
    smtp.sink.failNext(1);
    await runQueuedJobs(t.deps, ['mail.send'], { tolerateFailures: true });
    const failed = await findMessage(t.deps.db, id!);
    expect(failed).toMatchObject({ state: 'sending', attempts: 1 });
    expect(failed!.last_error).toMatch(/451/);
    expect(smtp.sink.received.filter((m) => m.envelope.to.includes('retry@example.com'))).toEqual([]);

    await sendQueuedMessages(t.deps, [id!]);
    // What a worker killed between the relay's 250 and the ledger update leaves behind: the row still `sending`.
    await t.deps.db.updateTable('mail_messages').set({ state: 'sending' }).where('id', '=', id!).execute();
    await sendQueuedMessages(t.deps, [id!]);
    const copies = smtp.sink.received.filter((m) => m.envelope.to.includes('retry@example.com'));
    expect(copies.map((m) => m.parsed.messageId)).toEqual([`<${id}@gable.test>`, `<${id}@gable.test>`]);
    expect(await findMessage(t.deps.db, id!)).toMatchObject({ state: 'sent', attempts: 3, last_error: null });
  });

  it('refuses CR or LF in the subject, addresses and headers, and writes nothing', async () => {
    const count = async () =>
      (
        await t.deps.db
          .selectFrom('mail_messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = Number(await count());
    for (const bad of [
      message({ subject: 'Hi\r\nBcc: victim@example.com' }),
      message({ headers: { 'X-A': 'b\nBcc: x@example.com' } }),
      message({ to: ['a@example.com\r\nX: y'] }),
      message({ to: [] }),
    ]) {
      await expect(queue(t.deps, [message(), bad])).rejects.toBeInstanceOf(UnsafeMessageError);
    }
    expect(Number(await count())).toBe(before);
  });
});

describe('mail without SMTP_URL (embedded mode)', () => {
  const t = useTestApp();

  it('writes each message as an .eml file that gable mail list and show print', async () => {
    const [id] = await queue(t.deps, [message({ subject: 'Open house on Saturday', to: ['dana@example.com'] })]);
    await runQueuedJobs(t.deps, ['mail.send']);
    const file = emlPath(t.deps.config, id!);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain(`Message-ID: <${id}@gable.test>`);
    expect(await findMessage(t.deps.db, id!)).toMatchObject({ state: 'sent', accepted: ['dana@example.com'] });

    const list = await runAdminCommand(registerMailCommands, t.deps, 'mail', 'list');
    expect(list.out).toContain(id);
    expect(list.out).toContain('Open house on Saturday');
    const show = await runAdminCommand(registerMailCommands, t.deps, 'mail', 'show', id!);
    expect(show.out).toContain('Subject: Open house on Saturday');
    expect(show.out).toContain('To: dana@example.com');

    const missing = await runAdminCommand(
      registerMailCommands,
      t.deps,
      'mail',
      'show',
      '00000000-0000-4000-8000-000000000000',
    );
    expect(missing.exitCode).toBe(1);
    expect((await runAdminCommand(registerMailCommands, t.deps, 'mail', 'show', '../../etc/passwd')).exitCode).toBe(2);
  });
});
