// Crash safety of the ledger, step by step on a test clock: a worker that dies holding a batch leaves messages
// `sending` (claimed, one of them already handed to the relay) and `queued`. Nothing is sent twice while its lease
// runs; once it has run out the sweeper re-queues them and every recipient gets the message — twice only the one
// that was in flight, with the same Message-ID.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useSmtpSink } from '../../test/fakes/smtp.js';
import { useTestApp } from '../../test/helpers/app.js';
import { runQueuedJobs } from '../../test/helpers/jobs.js';
import { claimForSending, findMessage } from './mail.repository.js';
import { queueMessages, recoverStalledMessages, SEND_LEASE_SECONDS, sendQueuedMessage } from './mail.service.js';
import { STALE_QUEUED_SECONDS } from './mail.tasks.js';

describe('a worker that dies mid-batch', () => {
  const smtp = useSmtpSink();
  const t = useTestApp({ env: smtp.env });

  it('leaves nothing unsent and sends twice only the message in flight, with the same Message-ID', async () => {
    const addresses = Array.from({ length: 12 }, (_, i) => `r${i}@example.com`);
    const ids = await t.deps.db.transaction().execute((trx) =>
      queueMessages(
        trx,
        t.deps,
        addresses.map((a) => ({ purpose: 'test', to: [a], subject: 'Hi', html: '<p>Hi</p>', text: 'Hi' })),
      ),
    );
    // The dead worker's progress: 4 sent, 2 claimed (the first already handed to the relay), 6 never touched;
    // its pg-boss job is still `active` (pg-boss fails it over only when it expires).
    for (const id of ids.slice(0, 4)) expect(await sendQueuedMessage(t.deps, id)).toBe(true);
    const now = t.clock.now();
    const leaseEnd = new Date(now.getTime() + SEND_LEASE_SECONDS * 1000);
    const inFlight = (await claimForSending(t.deps.db, ids[4]!, now, leaseEnd))!;
    await t.deps.mail.send({
      id: inFlight.id,
      messageId: inFlight.message_id,
      from: inFlight.from_address,
      to: inFlight.to_addresses,
      cc: [],
      bcc: [],
      subject: inFlight.subject,
      html: inFlight.html,
      text: inFlight.text_body,
      headers: inFlight.headers,
    });
    await claimForSending(t.deps.db, ids[5]!, now, leaseEnd);
    await sql`update pgboss.job set state = 'active', started_on = now() where name = 'mail.send'`.execute(t.deps.db);

    // While the lease runs, neither the sweeper nor another job touches a claimed message.
    expect(await recoverStalledMessages(t.deps)).toBe(0);
    expect(await sendQueuedMessage(t.deps, ids[5]!)).toBe(true);
    expect((await findMessage(t.deps.db, ids[5]!))!.state).toBe('sending');

    t.clock.advance(SEND_LEASE_SECONDS + 1);
    expect(await recoverStalledMessages(t.deps)).toBe(2);
    t.clock.advance(STALE_QUEUED_SECONDS);
    expect(await recoverStalledMessages(t.deps)).toBe(8);
    await runQueuedJobs(t.deps, ['mail.send']);

    for (const [i, address] of addresses.entries()) {
      const got = smtp.sink.received.filter((r) => r.envelope.to.includes(address));
      expect(got.length, address).toBe(i === 4 ? 2 : 1);
      expect(new Set(got.map((g) => g.parsed.messageId)), address).toEqual(new Set([`<${ids[i]}@gable.test>`]));
    }
    const rows = await t.deps.db.selectFrom('mail_messages').select(['state', 'claimed_until']).execute();
    expect(rows.every((r) => r.state === 'sent' && r.claimed_until === null)).toBe(true);
    expect(await recoverStalledMessages(t.deps)).toBe(0);
  });

  it('leaves a message planned for later to its own job', async () => {
    const [id] = await t.deps.db
      .transaction()
      .execute((trx) =>
        queueMessages(
          trx,
          t.deps,
          [{ purpose: 'test', to: ['later@example.com'], subject: 'Later', html: null, text: 'x' }],
          { startAfter: new Date(t.clock.now().getTime() + 24 * 3600_000) },
        ),
      );
    t.clock.advance(STALE_QUEUED_SECONDS + 60);
    expect(await recoverStalledMessages(t.deps)).toBe(0);
    expect((await findMessage(t.deps.db, id!))!.state).toBe('queued');
  });
});
